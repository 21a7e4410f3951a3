package mcpexec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/hotreload"
	"github.com/mcpexec/mcpexec/internal/actorlog"
	"github.com/mcpexec/mcpexec/internal/telemetry"
	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/nodes"
	"github.com/mcpexec/mcpexec/oauth"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
	"github.com/mcpexec/mcpexec/shapes"
)

// MaybeRunWorker turns this process into a sandbox worker when it was started
// as one, and exits; otherwise it returns at once. Call it first in main.
func MaybeRunWorker() { sandbox.MaybeRunWorker() }

// DefaultParkTimeout is how long a parked run waits for its answers
// unless Options.ParkTimeout says otherwise.
const DefaultParkTimeout = actors.DefaultParkTimeout

// Options configure a System. The zero value is a System with no MCP
// servers and default settings.
type Options struct {
	// Servers are the MCP servers to connect; ServersFile, if set, names a
	// file in the common {"mcpServers": {...}} format whose servers are
	// added, and which is followed: after a save, new servers connect,
	// removed ones stop and changed ones restart. With neither, the session
	// has no MCP manager.
	Servers     []pool.ServerConfig
	ServersFile string
	// SettingsPath is the settings file (enableExec, permissions,
	// disallowedTools), hot-reloaded; "allow always" answers are saved to
	// it. Empty: default settings, and such answers last for the session.
	SettingsPath string
	// ManagedSettingsPath and RemoteSettingsURL are optional administrator
	// sources; their enableExec wins over the settings file.
	ManagedSettingsPath string
	RemoteSettingsURL   string
	// Prompter asks the person about calls no rule settles; nil denies
	// them (telling the model how they can be allowed). WithPrompter
	// overrides it for the calls made under a context.
	Prompter permissions.Prompter
	// Elicitor puts the questions servers ask during a call
	// (elicitation/create) to the person; nil declines them. The budget
	// clock of the calls waiting stops meanwhile, and a question is
	// cancelled when those calls end (an aborted Exec).
	Elicitor elicit.Elicitor
	// Authorizer asks the person to authorize an MCP server that requires
	// OAuth (see package oauth; oauth.Loopback is one). Nil: such a server
	// stays "not connected: authorization required" unless OAuthStore
	// already holds a grant for it.
	Authorizer oauth.Authorizer
	// OAuthStore keeps each server's OAuth tokens; nil: an oauth.FileStore
	// in oauth.DefaultDir().
	OAuthStore oauth.Store
	// Limits bound every Exec run; zero fields take sandbox defaults.
	Limits sandbox.Limits
	// Locale and TimeZone are the scripts' default locale (a BCP 47 tag
	// such as "de-DE") and time zone (an IANA name such as
	// "Europe/Berlin"), which Intl and toLocaleString use. Empty: en-US and
	// UTC, whatever the machine's.
	Locale, TimeZone string
	// ParkTimeout bounds how long a run started by StartRun waits, parked,
	// for the answers to its questions; then it is cancelled. Zero:
	// DefaultParkTimeout.
	ParkTimeout time.Duration
	// CatalogBudget is the catalog budget in estimated tokens; zero takes
	// catalog.DefaultBudget.
	CatalogBudget int
	// NoShapeLearning turns off learning what tools return: the catalog
	// then shows no observed result shapes.
	NoShapeLearning bool
	// ShapesDir is where the observed result shapes persist; empty:
	// $MCPEXEC_CACHE_DIR, else mcpexec under the user cache directory.
	ShapesDir string
	// Workers configure the sandbox worker processes.
	Workers sandbox.WorkerOptions
	// Nodes, when set, runs every script on sandbox nodes (other machines
	// running "mcpexec sandbox-node") instead of on this machine's worker
	// processes, which are then not started; see package nodes. The pool,
	// the settings and the permission gate stay here: the nodes send every
	// nested call back.
	Nodes *nodes.DaemonOptions
	// Logger receives diagnostics; default: none. With a TracerProvider,
	// the lines logged about a traced call carry its trace_id and span_id.
	Logger *zerolog.Logger
	// TracerProvider receives the spans of every Exec call, nested call,
	// MCP request and catalog rendering; MeterProvider the metrics (see
	// the README's Observability section). Nil: none, at no cost. The
	// library never sets the global providers.
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// TraceArguments adds each nested call's arguments to its span
	// (gen_ai.tool.call.arguments). Off by default: spans then carry tool
	// names, sizes, durations and outcomes only.
	TraceArguments bool
}

// System is a running mcpexec: the actor system with its config, pool,
// permission gate and Exec actors, and the sandbox workers.
type System struct {
	logger   zerolog.Logger
	system   *actor.ActorSystem
	config   permissions.RuleStore
	settings *hotreload.Service // the config actor (in memory without a settings file)
	// serversWatch follows Options.ServersFile; nil without one.
	serversWatch *hotreload.FileWatch
	gate         *actors.Gate
	elicitor     elicit.Elicitor
	pool         *actors.Pool     // nil without an MCP manager
	workers      *sandbox.Workers // nil when scripts run on sandbox nodes
	placement    *nodes.Placement // nil when scripts run here
	execs        *actors.Execs
	parkTimeout  time.Duration
	budget       int
	broadcaster  *actors.Broadcaster
	// funnel runs the calls: flat ones, and Exec calls on their exec
	// actors, whose nested calls it takes through the gate and the pool.
	funnel *actors.Funnel
	// shapes keeps what tools were observed to return; nil when learning
	// is off.
	shapes *shapes.Store
	oauth  *oauth.Options
	// telemetry is nil without providers; unobserve unregisters its
	// collection-time instruments.
	telemetry *telemetry.Telemetry
	unobserve func()

	closeOnce sync.Once
	closeErr  error
}

// Start starts a System. It fails on setup errors only (an unreadable
// servers file, a malformed settings file, a binary that cannot start its
// sandbox workers); a server that fails to connect does not stop it.
func Start(ctx context.Context, opts Options) (_ *System, err error) {
	logger := zerolog.Nop()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	servers, err := serverConfigs(opts)
	if err != nil {
		return nil, err
	}
	tel, err := telemetry.New(telemetry.Options{
		TracerProvider: opts.TracerProvider, MeterProvider: opts.MeterProvider, RecordArguments: opts.TraceArguments})
	if err != nil {
		return nil, fmt.Errorf("mcpexec: telemetry: %w", err)
	}
	if opts.TracerProvider != nil {
		logger = logger.Hook(telemetry.LogHook{})
	}
	s := &System{
		telemetry:   tel,
		logger:      logger,
		system:      actorlog.NewSystem(logger),
		budget:      opts.CatalogBudget,
		parkTimeout: opts.ParkTimeout,
		oauth:       &oauth.Options{Authorizer: opts.Authorizer, Store: opts.OAuthStore},
	}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if opts.SettingsPath == "" && (opts.ManagedSettingsPath != "" || opts.RemoteSettingsURL != "") {
		// Managed and remote settings are layered over the settings file;
		// silently ignoring an administrator's source would be worse than
		// refusing to start.
		return nil, errors.New("mcpexec: managed or remote settings need a settings file (Options.SettingsPath)")
	}
	if opts.SettingsPath != "" {
		s.settings, err = hotreload.Start(ctx, s.system, hotreload.Options{
			SettingsPath: opts.SettingsPath, ManagedSettingsPath: opts.ManagedSettingsPath,
			RemoteURL: opts.RemoteSettingsURL, Logger: &logger,
		})
		if err != nil {
			return nil, err
		}
	} else {
		s.settings = hotreload.StartSession(s.system, logger)
	}
	s.config = s.settings
	prompter := opts.Prompter
	if prompter == nil {
		prompter = noPrompter
	}
	if s.elicitor = opts.Elicitor; s.elicitor == nil {
		s.elicitor = noElicitor
	}
	if s.gate, err = actors.StartGate(s.system, actors.GateOptions{Store: s.config, Prompter: prompter, Hints: s.ToolHints,
		Logger: &logger, Telemetry: tel}); err != nil {
		return nil, err
	}
	if err := s.startSandboxes(opts); err != nil {
		return nil, err
	}
	if servers != nil {
		if err := s.startPool(servers); err != nil {
			return nil, err
		}
	}
	s.openShapes(opts)
	bopts := actors.BroadcasterOptions{Budget: s.budget, Pool: s.pool, Logger: logger, Telemetry: tel}
	if s.shapes != nil {
		bopts.Observed = s.observedNote
	}
	s.broadcaster = actors.StartBroadcaster(s.system, bopts)
	s.funnel = &actors.Funnel{
		Execs: s.execs, Gate: s.gate, Pool: s.pool,
		Broadcaster: s.broadcaster, Settings: s.config, Limits: opts.limits(), Logger: logger, Telemetry: tel,
	}
	if s.shapes != nil {
		s.funnel.Observe = s.observe
	}
	if opts.ServersFile != "" {
		if err := s.watchServersFile(opts); err != nil {
			return nil, err
		}
	}
	var workers func() telemetry.WorkerStats // none on this machine with sandbox nodes
	if s.workers != nil {
		workers = s.workerStats
	}
	if s.unobserve, err = tel.Observe(workers, s.serverStates); err != nil {
		return nil, fmt.Errorf("mcpexec: telemetry: %w", err)
	}
	return s, nil
}

// startSandboxes starts what runs scripts: this machine's worker
// processes, or the placement of runs on sandbox nodes.
func (s *System) startSandboxes(opts Options) (err error) {
	if opts.Nodes != nil {
		nodeOpts := *opts.Nodes
		if nodeOpts.Logger == nil {
			nodeOpts.Logger = &s.logger
		}
		if s.placement, err = nodes.Join(s.system, nodeOpts); err != nil {
			return err
		}
		s.execs = actors.NewExecs(s.system, nil, s.logger)
		s.execs.PlaceOn(s.placement)
		return nil
	}
	workerOpts := opts.Workers
	if workerOpts.Logger == nil {
		workerOpts.Logger = &s.logger
	}
	if s.workers, err = sandbox.NewWorkers(workerOpts); err != nil {
		return err
	}
	s.execs = actors.NewExecs(s.system, s.workers, s.logger)
	return nil
}

// SandboxNodes returns the sandbox nodes that take runs now, by address;
// nil when scripts run on this machine.
func (s *System) SandboxNodes() []string {
	if s.placement == nil {
		return nil
	}
	return s.placement.Nodes()
}

// WaitSandboxNodes waits until at least n sandbox nodes take runs, or ctx
// ends. Without sandbox nodes it returns at once.
func (s *System) WaitSandboxNodes(ctx context.Context, n int) error {
	if s.placement == nil {
		return nil
	}
	return s.placement.WaitNodes(ctx, n)
}

// serverConfigs gathers the configured servers; nil means no MCP manager.
func serverConfigs(opts Options) ([]pool.ServerConfig, error) {
	servers := opts.Servers
	if opts.ServersFile != "" {
		fromFile, err := readServersFile(opts.ServersFile)
		if err != nil {
			return nil, err
		}
		servers = append(append([]pool.ServerConfig(nil), servers...), fromFile...)
		if servers == nil {
			servers = []pool.ServerConfig{}
		}
	}
	return servers, nil
}

// readServersFile reads and parses an mcpServers file.
func readServersFile(path string) ([]pool.ServerConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mcpexec: servers file: %w", err)
	}
	servers, err := pool.ParseConfigFile(path, data)
	if err != nil {
		return nil, fmt.Errorf("mcpexec: servers file %w", err) // the error names the file
	}
	return servers, nil
}

// startPool starts the pool actor, gated by the permission gate and kept
// in step with the deny rules as the settings change.
func (s *System) startPool(servers []pool.ServerConfig) error {
	excludeFor := func(cfg messages.Config) pool.Exclude {
		return func(name string) bool { return permissions.Excludes(cfg, name) }
	}
	p, err := actors.StartPool(s.system, actors.PoolConfig{
		Servers: servers,
		Options: pool.Options{Logger: s.logger, Gate: s.gate, Exclude: excludeFor(s.config.Current()),
			Elicitor: s.elicitor, OAuth: s.oauth, Telemetry: s.telemetry},
		ExcludeFor: excludeFor,
	})
	if err != nil {
		return err
	}
	s.pool = p
	s.system.Root.Send(s.settings.PID(), &hotreload.SubscribeConfig{Subscriber: p.PID()})
	return nil
}

// Close stops every actor, worker and server process, and returns when they
// are gone. Exec calls in flight finish first.
func (s *System) Close() error {
	s.closeOnce.Do(func() {
		var errs []error
		if s.unobserve != nil {
			s.unobserve()
		}
		if s.serversWatch != nil {
			errs = append(errs, s.serversWatch.Close())
		}
		if s.execs != nil {
			// A parked run's budget is stopped: it would hold its worker
			// until it expired.
			ctx, cancel := context.WithTimeout(context.Background(), closeRunsGrace)
			s.execs.CancelAll(ctx)
			cancel()
		}
		if s.workers != nil {
			errs = append(errs, s.workers.Close())
		}
		if s.placement != nil {
			s.placement.Close()
		}
		if s.broadcaster != nil {
			s.broadcaster.Stop()
		}
		if s.pool != nil {
			s.pool.Stop()
		}
		if s.gate != nil {
			s.gate.Stop()
		}
		if s.settings != nil {
			errs = append(errs, s.settings.Close())
		}
		s.system.Shutdown()
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// closeRunsGrace bounds Close's wait for the runs it cancels.
const closeRunsGrace = 10 * time.Second

// noPrompter answers for a System with no one to ask: no, and how to allow
// the call.
var noPrompter = permissions.Unattended("")

// noElicitor answers servers' questions for a System with no one to ask.
var noElicitor = elicit.Unattended("no one is available to answer it")

// limits are the Exec runs' limits, carrying the default locale and time
// zone to the workers.
func (o Options) limits() sandbox.Limits {
	l := o.Limits
	if o.Locale != "" {
		l.Locale = o.Locale
	}
	if o.TimeZone != "" {
		l.TimeZone = o.TimeZone
	}
	return l
}
