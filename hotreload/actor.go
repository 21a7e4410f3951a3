package hotreload

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/messages"
)

// configActor owns the configuration sources and publishes every change.
// It works on its own copy of the sources' readings; what outlives a crash
// is in configMemory, which changes only when a change is published.
//
// Supervision: a crash (a panic in Receive: a bug in parsing, merging or
// saving) restarts the actor from the last good configuration it
// published. The asker of the message that crashed it (an "allow always"
// save, a remote poll) gets an error at once; the change that message was
// making is dropped from memory, not half applied: the next reading of the
// source applies it again. An actor that crashes more than
// supervise.MaxRestarts times a minute is stopped, and the configuration
// stays as last published.
type configActor struct {
	readings
	kept   *configMemory
	logger zerolog.Logger
}

// readings are the configuration sources as last read: what the effective
// configuration is merged from.
type readings struct {
	settings *layer // nil for a session without a settings file
	managed  *layer // nil when no managed-settings file is configured
	remote   *layer
	// session holds the "allow always" rules of a session without a
	// settings file: they last until the process exits.
	session []string
}

// clone copies the readings; layers replace their fields rather than
// modify them in place, so a shallow copy of each is independent.
func (r readings) clone() readings {
	return readings{settings: r.settings.clone(), managed: r.managed.clone(), remote: r.remote.clone(),
		session: slices.Clip(r.session)}
}

// configMemory is the config actor's state that outlives a restart: the
// last configuration it published, the readings it was merged from, and
// who listens. A new incarnation starts from it.
type configMemory struct {
	committed   readings
	last        *messages.ConfigChanged
	subscribers []*actor.PID
	// announced is false while last is being told to the handle and the
	// subscribers; an incarnation that finds it false tells them again.
	announced bool
	// published receives every event, for the handle's synchronous reads.
	published func(*messages.ConfigChanged)
	logger    zerolog.Logger
}

// incarnate builds an actor from the committed state.
func (m *configMemory) incarnate() actor.Actor {
	return &configActor{readings: m.committed.clone(), kept: m, logger: m.logger}
}

// announce tells the handle and every subscriber the last event.
func (m *configMemory) announce(c actor.Context) {
	m.published(m.last)
	for _, s := range m.subscribers {
		c.Send(s, m.last)
	}
	m.announced = true
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
	switch msg := c.Message().(type) {
	case *actor.Started:
		if !a.kept.announced {
			// The incarnation before this one failed while it announced
			// a change: some subscribers may not have heard of it.
			a.kept.announce(c)
		}
	case *actor.Restarting:
		a.logger.Warn().Uint64("seq", a.kept.last.Seq).
			Msg("config actor restarting from the last good configuration; the change it was making is dropped")
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
				hook(hookSessionRule)
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
		if !slices.Contains(a.kept.subscribers, msg.Subscriber) {
			a.kept.subscribers = append(a.kept.subscribers, msg.Subscriber)
		}
		c.Send(msg.Subscriber, a.kept.last)
	case *UnsubscribeConfig:
		a.kept.subscribers = slices.DeleteFunc(a.kept.subscribers, func(p *actor.PID) bool { return p.Equal(msg.Subscriber) })
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
	hook(hookReloading)
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
// source failed and the configuration is unchanged. The new state is
// committed to memory before anyone hears of it, so a restart resumes from
// what was announced.
func (a *configActor) publish(c actor.Context, source messages.ConfigSource, err error) {
	last := a.kept.last
	ev := &messages.ConfigChanged{Seq: last.Seq + 1, Source: source, Err: err, Config: last.Config}
	if err == nil {
		ev.Config = a.merged()
		a.logger.Info().Str("source", string(source)).Bool("enableExec", ev.Config.EnableExec).
			Msg("configuration reloaded")
	}
	a.kept.committed, a.kept.last, a.kept.announced = a.readings.clone(), ev, false
	a.kept.announce(c)
}

// merged is the effective configuration of the present layers.
func (r readings) merged() Config {
	var layers []Settings
	for _, l := range []*layer{r.settings, r.managed, r.remote} {
		if l != nil && l.settings != nil {
			layers = append(layers, *l.settings)
		}
	}
	if len(r.session) > 0 {
		layers = append(layers, Settings{Permissions: PermissionRules{Allow: r.session}})
	}
	return Merge(layers...)
}
