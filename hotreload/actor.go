package hotreload

import (
	"fmt"
	"slices"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/messages"
)

// configActor owns the configuration sources and publishes every change.
type configActor struct {
	settings *layer // nil for a session without a settings file
	// session holds the "allow always" rules of a session without a
	// settings file: they last until the process exits.
	session []string
	managed *layer // nil when no managed-settings file is configured
	remote  *layer

	seq         uint64
	last        *messages.ConfigChanged
	subscribers []*actor.PID
	// published receives every event, for the handle's synchronous reads.
	published func(*messages.ConfigChanged)
	logger    zerolog.Logger
}

// filesChanged is the watcher's report: these file layers (by source) may
// have new content.
type filesChanged struct {
	sources []messages.ConfigSource
}

// remotePolled is one poll of the remote endpoint (reply: *remoteApplied).
type remotePolled struct {
	fetched fetched
	err     error
}

// remoteApplied answers remotePolled; err is set when the document was
// rejected, so its ETag must not be kept.
type remoteApplied struct {
	err error
}

func (a *configActor) Receive(c actor.Context) {
	defer a.survive(c)
	switch msg := c.Message().(type) {
	case *filesChanged:
		for _, source := range msg.sources {
			if l := a.fileLayer(source); l != nil {
				a.reloadFile(c, l, source)
			}
		}
	case *remotePolled:
		err := a.applyRemote(c, msg)
		respond(c, &remoteApplied{err: err})
	case *messages.SaveAllowRule:
		if a.settings == nil {
			if !slices.Contains(a.session, msg.Rule) {
				a.session = append(slices.Clip(a.session), msg.Rule)
				a.publish(c, messages.SourceAllowRule, nil)
			}
			respond(c, &messages.AllowRuleSaved{Rule: msg.Rule})
			return
		}
		err := AddAllowRule(a.settings.path, msg.Rule)
		if err == nil {
			a.reloadFile(c, a.settings, messages.SourceAllowRule)
		} else {
			a.logger.Warn().Err(err).Str("rule", msg.Rule).Msg("allow rule not saved")
		}
		respond(c, &messages.AllowRuleSaved{Rule: msg.Rule, Err: err})
	case *SubscribeConfig:
		if !slices.Contains(a.subscribers, msg.Subscriber) {
			a.subscribers = append(a.subscribers, msg.Subscriber)
		}
		c.Send(msg.Subscriber, a.last)
	case *UnsubscribeConfig:
		a.subscribers = slices.DeleteFunc(a.subscribers, func(p *actor.PID) bool { return p.Equal(msg.Subscriber) })
	}
}

// survive keeps the actor and its callers going if handling a message
// panics: the actor library would restart the actor and drop the message,
// leaving a caller waiting for a reply that never comes.
func (a *configActor) survive(c actor.Context) {
	r := recover()
	if r == nil {
		return
	}
	err := fmt.Errorf("hotreload: config actor failed on %T: %v", c.Message(), r)
	a.logger.Error().Err(err).Msg("configuration message not handled")
	switch msg := c.Message().(type) {
	case *messages.SaveAllowRule:
		respond(c, &messages.AllowRuleSaved{Rule: msg.Rule, Err: err})
	case *remotePolled:
		respond(c, &remoteApplied{err: err})
	}
}

func respond(c actor.Context, msg any) {
	if c.Sender() != nil {
		c.Respond(msg)
	}
}

func (a *configActor) fileLayer(source messages.ConfigSource) *layer {
	switch source {
	case messages.SourceSettingsFile:
		return a.settings
	case messages.SourceManagedFile:
		return a.managed
	}
	return nil
}

// reloadFile re-reads a file layer and publishes what changed.
func (a *configActor) reloadFile(c actor.Context, l *layer, source messages.ConfigSource) {
	changed, err := l.readFile()
	if !changed {
		return
	}
	if err != nil {
		a.logger.Warn().Err(err).Msg("settings not reloaded; keeping the last good configuration")
	}
	a.publish(c, source, err)
}

func (a *configActor) applyRemote(c actor.Context, msg *remotePolled) error {
	l := a.remote
	if msg.err != nil {
		if l.failed(msg.err) {
			a.logger.Warn().Err(msg.err).Msg("remote settings unreachable; keeping the last value it delivered")
			a.publish(c, messages.SourceRemote, msg.err)
		} else {
			a.logger.Debug().Err(msg.err).Msg("remote settings still unreachable")
		}
		return msg.err
	}
	if msg.fetched.notModified {
		if l.err != nil {
			a.logger.Info().Msg("remote settings reachable again")
			l.err, l.seen = nil, true
		}
		return nil
	}
	changed, err := l.update(true, msg.fetched.body)
	if changed {
		if err != nil {
			a.logger.Warn().Err(err).Msg("remote settings rejected; keeping the last value it delivered")
		}
		a.publish(c, messages.SourceRemote, err)
	}
	return err
}

// publish announces the state after a change of source; err means the
// source failed and the configuration is unchanged.
func (a *configActor) publish(c actor.Context, source messages.ConfigSource, err error) {
	a.seq++
	ev := &messages.ConfigChanged{Seq: a.seq, Source: source, Err: err, Config: a.last.Config}
	if err == nil {
		ev.Config = a.merged()
		a.logger.Info().Str("source", string(source)).Bool("enableExec", ev.Config.EnableExec).
			Msg("configuration reloaded")
	}
	a.last = ev
	a.published(ev)
	for _, s := range a.subscribers {
		c.Send(s, ev)
	}
}

// merged is the effective configuration of the present layers.
func (a *configActor) merged() Config {
	var layers []Settings
	for _, l := range []*layer{a.settings, a.managed, a.remote} {
		if l != nil && l.settings != nil {
			layers = append(layers, *l.settings)
		}
	}
	if len(a.session) > 0 {
		layers = append(layers, Settings{Permissions: PermissionRules{Allow: a.session}})
	}
	return Merge(layers...)
}
