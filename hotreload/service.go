package hotreload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec/internal/ask"
	"github.com/mcpexec/mcpexec/internal/supervise"
	"github.com/mcpexec/mcpexec/messages"
)

// Defaults for Options.
const (
	DefaultDebounce       = 250 * time.Millisecond
	DefaultRemoteInterval = time.Minute
	defaultHTTPTimeout    = 30 * time.Second
	subscriptionBuffer    = 16
)

// Options configure a Service.
type Options struct {
	// SettingsPath is the settings file a person edits and "allow always"
	// rules are written to. Required; the file need not exist, its directory
	// is created if needed.
	SettingsPath string
	// ManagedSettingsPath is an optional managed-settings file (watched like
	// the settings file); its enableExec wins over the settings file.
	ManagedSettingsPath string
	// RemoteURL is an optional HTTP(S) endpoint serving a settings document;
	// its enableExec wins over both files. It is polled every RemoteInterval
	// with If-None-Match.
	RemoteURL      string
	RemoteInterval time.Duration
	HTTPClient     *http.Client
	// Debounce is how long the watched files must be quiet before a burst of
	// events reloads them.
	Debounce time.Duration
	Logger   *zerolog.Logger
}

// Service is the handle of the config actor: cheap synchronous reads of the
// current configuration, subscriptions to changes, and "allow always" saves.
type Service struct {
	system  *actor.ActorSystem
	pid     *actor.PID
	current atomic.Pointer[messages.ConfigChanged]
	watcher *watcher[messages.ConfigSource]
	logger  zerolog.Logger

	remote      *remoteEndpoint
	pollMu      sync.Mutex // one poll at a time: the ETag is shared state
	stopPolling context.CancelFunc
	polling     sync.WaitGroup

	subsMu sync.Mutex
	subs   map[*subscription]struct{}
	closed bool
}

// Start loads the sources, spawns the config actor in system and starts
// watching. A settings or managed-settings file that exists but does not
// parse is an error here (there is no last good configuration yet). With a
// RemoteURL, the first poll happens before Start returns, bounded by ctx; if
// it fails the files decide until a poll succeeds.
func Start(ctx context.Context, system *actor.ActorSystem, opts Options) (*Service, error) {
	opts, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	s := &Service{system: system, logger: *opts.Logger, subs: map[*subscription]struct{}{}}
	kept := s.memory(readings{
		settings: &layer{source: messages.SourceSettingsFile, path: opts.SettingsPath},
		remote:   &layer{source: messages.SourceRemote},
	})
	watched := map[string]messages.ConfigSource{}
	addWatch(watched, opts.SettingsPath, messages.SourceSettingsFile)
	if _, err := kept.committed.settings.readFile(); err != nil {
		return nil, err
	}
	if opts.ManagedSettingsPath != "" {
		kept.committed.managed = &layer{source: messages.SourceManagedFile, path: opts.ManagedSettingsPath}
		if _, err := kept.committed.managed.readFile(); err != nil {
			return nil, err
		}
		addWatch(watched, opts.ManagedSettingsPath, messages.SourceManagedFile)
	}
	if opts.RemoteURL != "" {
		if s.remote, err = newRemoteEndpoint(opts.RemoteURL, opts.HTTPClient); err != nil {
			return nil, err
		}
	}
	s.spawn(kept)

	s.watcher, err = watchFiles(watched, opts.Debounce, s.filesChanged, s.logger)
	if err != nil {
		_ = system.Root.StopFuture(s.pid).Wait()
		return nil, fmt.Errorf("watch settings: %w", err)
	}
	if s.remote != nil {
		if err := s.pollRemote(ctx); err != nil {
			s.logger.Warn().Err(err).Msg("remote settings not fetched at start")
		}
		pollCtx, stop := context.WithCancel(context.Background())
		s.stopPolling = stop
		s.polling.Add(1)
		go s.pollEvery(pollCtx, opts.RemoteInterval)
	}
	return s, nil
}

// StartSession spawns a config actor for a session without a settings
// file: the default configuration, plus the "allow always" answers given
// during the session, which last until the process exits.
func StartSession(system *actor.ActorSystem, logger zerolog.Logger) *Service {
	s := &Service{system: system, logger: logger, subs: map[*subscription]struct{}{}}
	s.spawn(s.memory(readings{remote: &layer{source: messages.SourceRemote}}))
	return s
}

// memory is the config actor's memory, starting from the sources as read.
func (s *Service) memory(start readings) *configMemory {
	return &configMemory{committed: start, announced: true, published: s.current.Store, logger: s.logger}
}

// spawn publishes the starting configuration and spawns the config actor
// under its supervisor: restarted from kept after a crash.
func (s *Service) spawn(kept *configMemory) {
	kept.last = &messages.ConfigChanged{Config: kept.committed.merged(), Source: messages.SourceStart}
	s.current.Store(kept.last)
	props := actor.PropsFromProducer(kept.incarnate)
	s.pid = supervise.Spawn(s.system, props, supervise.Strategy("config", actor.RestartDirective, s.logger))
}

func withDefaults(opts Options) (Options, error) {
	if opts.SettingsPath == "" {
		return opts, errors.New("hotreload: Options.SettingsPath is required")
	}
	var err error
	if opts.SettingsPath, err = filepath.Abs(opts.SettingsPath); err != nil {
		return opts, err
	}
	if err := os.MkdirAll(filepath.Dir(opts.SettingsPath), 0o700); err != nil {
		return opts, fmt.Errorf("settings directory: %w", err)
	}
	if opts.ManagedSettingsPath != "" {
		if opts.ManagedSettingsPath, err = filepath.Abs(opts.ManagedSettingsPath); err != nil {
			return opts, err
		}
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.RemoteInterval <= 0 {
		opts.RemoteInterval = DefaultRemoteInterval
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: defaultHTTPTimeout}
	}
	if opts.Logger == nil {
		nop := zerolog.Nop()
		opts.Logger = &nop
	}
	return opts, nil
}

// addWatch watches path, and the file it links to when it is a symbolic
// link (edits to the target do not touch the link's directory).
func addWatch(watched map[string]messages.ConfigSource, path string, source messages.ConfigSource) {
	watched[path] = source
	if resolved, err := filepath.EvalSymlinks(path); err == nil && resolved != path {
		watched[resolved] = source
	}
}

// filesChanged runs on the watcher's goroutine.
func (s *Service) filesChanged(names []messages.ConfigSource) {
	s.system.Root.Send(s.pid, &filesChanged{sources: names})
}

// PID is the config actor, for actors that subscribe with SubscribeConfig.
func (s *Service) PID() *actor.PID { return s.pid }

// Current returns the effective configuration. It is a lock-free read; its
// slices are shared and must not be modified.
func (s *Service) Current() Config { return s.current.Load().Config }

// Last returns the latest event: the configuration, its sequence number and
// the error of the last source that failed to load, if that was the latest
// news.
func (s *Service) Last() messages.ConfigChanged { return *s.current.Load() }

// AllowAlways persists rule in the settings file's permissions.allow. When it
// returns nil, Current includes the rule. If ctx ends first the write may
// still complete.
func (s *Service) AllowAlways(ctx context.Context, rule string) error {
	res, err := ask.Request[*messages.AllowRuleSaved](ctx, s.system, s.pid, &messages.SaveAllowRule{Rule: rule})
	if err != nil {
		return fmt.Errorf("hotreload: config actor: %w", err)
	}
	return res.Err
}

// RefreshRemote polls the remote endpoint now and returns when the result
// has been applied. An unreachable endpoint is an error, and the last value
// it delivered stays in force.
func (s *Service) RefreshRemote(ctx context.Context) error {
	if s.remote == nil {
		return errors.New("hotreload: no remote settings endpoint is configured")
	}
	return s.pollRemote(ctx)
}

func (s *Service) pollEvery(ctx context.Context, interval time.Duration) {
	defer s.polling.Done()
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			_ = s.pollRemote(ctx)
		}
	}
}

func (s *Service) pollRemote(ctx context.Context) error {
	s.pollMu.Lock()
	defer s.pollMu.Unlock()
	f, fetchErr := s.remote.fetch(ctx)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	res, err := ask.Request[*remoteApplied](ctx, s.system, s.pid, &remotePolled{fetched: f, err: fetchErr})
	if err != nil {
		return fmt.Errorf("hotreload: config actor: %w", err)
	}
	if applyErr := res.err; applyErr != nil {
		return applyErr
	}
	if !f.notModified {
		s.remote.etag = f.etag
	}
	return nil
}

// Subscribe returns a channel that receives the current state at once and
// then every ConfigChanged. A subscriber that falls behind loses the oldest
// events, never the latest (Seq shows the gap). cancel ends the subscription
// and closes the channel.
func (s *Service) Subscribe() (events <-chan messages.ConfigChanged, cancel func()) {
	sub := &subscription{ch: make(chan messages.ConfigChanged, subscriptionBuffer)}
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	if s.closed {
		close(sub.ch)
		return sub.ch, func() {}
	}
	s.subs[sub] = struct{}{}
	sub.pid = s.system.Root.Spawn(actor.PropsFromFunc(sub.receive))
	s.system.Root.Send(s.pid, &SubscribeConfig{Subscriber: sub.pid})
	return sub.ch, func() { s.unsubscribe(sub) }
}

func (s *Service) unsubscribe(sub *subscription) {
	s.subsMu.Lock()
	_, ok := s.subs[sub]
	delete(s.subs, sub)
	s.subsMu.Unlock()
	if ok {
		sub.stop(s.system, s.pid)
	}
}

// Close stops polling, watching, every subscription and the config actor,
// and waits for their goroutines.
func (s *Service) Close() error {
	s.subsMu.Lock()
	if s.closed {
		s.subsMu.Unlock()
		return nil
	}
	s.closed = true
	subs := s.subs
	s.subs = nil
	s.subsMu.Unlock()

	if s.stopPolling != nil {
		s.stopPolling()
		s.polling.Wait()
	}
	var err error
	if s.watcher != nil {
		err = s.watcher.close()
	}
	for sub := range subs {
		sub.stop(s.system, s.pid)
	}
	_ = s.system.Root.StopFuture(s.pid).Wait()
	return err
}

// subscription forwards ConfigChanged from the config actor into a channel.
type subscription struct {
	pid *actor.PID
	ch  chan messages.ConfigChanged
}

func (sub *subscription) receive(c actor.Context) {
	ev, ok := c.Message().(*messages.ConfigChanged)
	if !ok {
		return
	}
	select {
	case sub.ch <- *ev:
	default:
		// Full: drop the oldest so the latest state always arrives. This
		// actor is the only sender, so the second send cannot block.
		select {
		case <-sub.ch:
		default:
		}
		sub.ch <- *ev
	}
}

func (sub *subscription) stop(system *actor.ActorSystem, config *actor.PID) {
	system.Root.Send(config, &UnsubscribeConfig{Subscriber: sub.pid})
	_ = system.Root.StopFuture(sub.pid).Wait()
	close(sub.ch)
}
