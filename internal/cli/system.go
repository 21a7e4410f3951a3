package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
)

// session is a started System plus what the command made for it.
type session struct {
	*mcpexec.System
	tempDir    string          // holds the default settings file; removed by close
	authorizer *demoAuthorizer // receives OAuth redirects; nil for the built-in servers
	// log and style are where the session tells the person about its
	// servers (stderr).
	log   io.Writer
	style style
}

// sessionConfig is what the exec, catalog and tools commands share.
type sessionConfig struct {
	// pool names the servers file ("" = the built-in servers) and the
	// settings file ("" = see defaultSettings); verbose shows the servers'
	// diagnostics.
	pool poolFlags
	// defaultSettings uses the demo's default settings (built-in tools
	// allowed, delete asks) when no settings file is given and the pool
	// is the built-in one.
	defaultSettings bool
	options         mcpexec.Options // further options (Prompter, Limits, ...)
	// background is a command that runs until stopped: it does not wait for
	// OAuth authorizations, whose servers join the pool when they are done.
	background bool
	// startWait bounds the wait for the servers to start (0: each server's
	// connect timeout alone bounds it).
	startWait time.Duration
}

// startSession starts a System for one command and waits until every server
// has been tried once, or cfg.startWait has passed, naming on log the
// servers still starting. Server trouble is logged as warnings on log.
func startSession(ctx context.Context, cfg sessionConfig, log io.Writer, st style) (*session, error) {
	if err := checkSettingsFile(cfg.pool.settings); err != nil {
		return nil, err
	}
	servers, err := loadServers(cfg.pool.servers)
	if err != nil {
		return nil, err
	}
	s := &session{log: log, style: st}
	opts := cfg.options
	if cfg.pool.servers != "" {
		// The library reads the file too, and follows its edits.
		opts.ServersFile = cfg.pool.servers
	} else {
		opts.Servers = servers
	}
	opts.SettingsPath = cfg.pool.settings
	opts.NoShapeLearning = opts.NoShapeLearning || cfg.pool.noLearn
	if opts.SettingsPath == "" && cfg.pool.servers == "" && cfg.defaultSettings {
		if s.tempDir, err = os.MkdirTemp("", "mcpexec-demo-"); err != nil {
			return nil, err
		}
		if opts.SettingsPath, err = writeDefaultSettings(s.tempDir); err != nil {
			s.close()
			return nil, err
		}
	}
	if opts.Logger == nil {
		logger := warningLogger(log, st)
		if cfg.pool.verbose {
			logger = logger.Level(zerolog.DebugLevel)
		}
		opts.Logger = &logger
	}
	// The pool never connects an entry it cannot use and says so only in
	// its status: tell the person now.
	for _, srv := range servers {
		if srv.Err != nil {
			opts.Logger.Warn().Err(srv.Err).Msg("mcp server entry skipped")
		}
	}
	if cfg.pool.servers != "" {
		if s.authorizer, err = newDemoAuthorizer(cfg.pool.oauth, log, st); err != nil {
			s.close()
			return nil, err
		}
		if err := oauthOptions(&opts, cfg.pool.oauth, s.authorizer); err != nil {
			s.close()
			return nil, err
		}
	}
	// A command runs one script at most: one warm worker is plenty.
	opts.Workers.Warm = max(opts.Workers.Warm, 1)
	if s.System, err = mcpexec.Start(ctx, opts); err != nil {
		s.close()
		return nil, err
	}
	if err := waitForServers(ctx, s.System, cfg.startWait, log, st); err != nil {
		s.close()
		return nil, fmt.Errorf("waiting for the MCP servers: %w", err)
	}
	if cfg.background {
		return s, nil
	}
	if err := waitAuthorized(ctx, s.System, cfg.pool.oauth.wait); err != nil {
		s.close()
		return nil, fmt.Errorf("waiting for OAuth authorization: %w", err)
	}
	return s, nil
}

// checkSettingsFile reports a --settings path that does not exist. The
// library reads a missing settings file as an empty one (it may be created
// later, and is followed for edits), but a path the person typed is meant
// to be read: a typo would otherwise run with no rules at all.
func checkSettingsFile(path string) error {
	if path == "" {
		return nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("settings file %s does not exist (to start with no rules, create it containing {})", path)
	} else if err != nil {
		return fmt.Errorf("settings file: %w", err)
	}
	return nil
}

// close stops the System (every server and worker process) and removes the
// temporary settings.
func (s *session) close() {
	if s.System != nil {
		_ = s.System.Close()
	}
	if s.authorizer != nil {
		_ = s.authorizer.Close()
	}
	if s.tempDir != "" {
		_ = os.RemoveAll(s.tempDir)
	}
}

// warningLogger writes warnings and errors (a server that cannot start, a
// settings file that does not parse) as one short line each: a field such
// as a crashed worker's output is cut to its first line, and a server's
// failure repeated on each retry is written once.
func warningLogger(w io.Writer, st style) zerolog.Logger {
	out := zerolog.ConsoleWriter{
		Out: w, NoColor: !st.color, PartsExclude: []string{zerolog.TimestampFieldName},
		FormatFieldValue: shortField, FormatErrFieldValue: errorField,
	}
	return zerolog.New(&quietRetries{next: out, full: w}).Level(zerolog.WarnLevel)
}

// maxFieldRunes bounds one logged field value.
const maxFieldRunes = 160

// shortError is err's message up to its first line: setup errors may carry
// a crashed process's whole output.
func shortError(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return shortField(msg)
}

// errorField renders an error as its own text, unquoted: its message is
// written for the person (`mcp.json:2:21: mcp server "bad": "command" must
// be a string`), and the quoting a console field gets would show every
// quote inside it escaped. Its first line only, at most maxFieldRunes long.
func errorField(v any) string {
	s := fmt.Sprint(v)
	if unquoted, err := strconv.Unquote(s); err == nil {
		s = unquoted
	}
	s, _, cut := strings.Cut(s, "\n")
	if r := []rune(s); len(r) > maxFieldRunes {
		s, cut = string(r[:maxFieldRunes]), true
	}
	if cut {
		return s + "…"
	}
	return s
}

// shortField renders a (quoted, when it needed quotes) field value up to its
// first escaped newline, at most maxFieldRunes long.
func shortField(v any) string {
	s := fmt.Sprint(v)
	cut := false
	if i := strings.Index(s, `\n`); i >= 0 {
		// A nested quote escapes the backslash too: drop what is left of it.
		s, cut = strings.TrimRight(s[:i], `\`), true
	}
	if r := []rune(s); len(r) > maxFieldRunes {
		s, cut = string(r[:maxFieldRunes]), true
	}
	if !cut {
		return s
	}
	if strings.HasPrefix(s, `"`) {
		return s + `…"`
	}
	return s + "…"
}
