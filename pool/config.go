package pool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec/oauth"
)

// ServerConfig is one entry of the mcpServers file, or a server given in code.
//
// Exactly one way to reach the server is set: Command (stdio), URL
// (streamable HTTP, or SSE when Type is "sse"), or Dial (any transport,
// e.g. the SDK's in-memory transports in tests and embedded servers).
type ServerConfig struct {
	Name string
	// Command, Args, Env and Cwd start a stdio server. Env is added on top of
	// the daemon's own environment; a configured variable wins over an
	// inherited one of the same name.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// URL and Headers reach a server over HTTP. Headers are sent with every
	// request (e.g. Authorization).
	URL     string
	Headers map[string]string
	// OAuth configures the client this server's OAuth authorization uses
	// (see oauth.Config); nil takes the defaults. Only streamable HTTP
	// servers are authorized with OAuth, and only when Manager's
	// Options.OAuth is set.
	OAuth *oauth.Config
	// Type is "", "stdio", "http", "streamable-http" or "sse". It is only
	// needed to pick SSE over streamable HTTP for a URL.
	Type string
	// Dial returns a fresh transport for each connection attempt.
	Dial func(ctx context.Context) (mcp.Transport, error)
	// Disabled keeps the server out of the pool: it is reported as
	// disabled and never started.
	Disabled bool
	// ConnectTimeout bounds starting the server, initialize and each ping
	// (zero: Options.ConnectTimeout).
	ConnectTimeout time.Duration
	// CallTimeout bounds each tools/call (zero: only the caller's context).
	CallTimeout time.Duration
	// MaxReplyBytes bounds one message from the server: a stdio line, an
	// HTTP server's SSE event or JSON body (zero: DefaultMaxReplyBytes). A
	// tools/call reply over it fails that call and keeps the connection.
	MaxReplyBytes int64
	// Err is set when the entry is unusable; the Manager reports it as that
	// server's state and never connects it.
	Err error
}

// fileEntry is one server as written in an mcpServers file.
type fileEntry struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	OAuth   *oauth.Config     `json:"oauth"`

	Disabled          bool    `json:"disabled"`
	ConnectTimeoutSec float64 `json:"connectTimeoutSec"`
	CallTimeoutSec    float64 `json:"callTimeoutSec"`
	MaxReplyMB        float64 `json:"maxReplyMB"`
}

// ParseConfig reads the common mcpServers file format:
//
//	{"mcpServers": {"name": {"command": "...", "args": [...], "env": {...}},
//	                "remote": {"url": "https://...", "headers": {...}}}}
//
// Besides command, args, env, cwd, type, url and headers, an entry may set
// "disabled": true, "connectTimeoutSec", "callTimeoutSec" and "maxReplyMB".
// ${NAME} and ${NAME:-default} in command, args, env and headers values, url
// and cwd are expanded from the environment ([ExpandVars]).
//
// It returns the servers sorted by name. A bad entry does not fail the file:
// it comes back with Err set (naming the server and the problem) so the other
// servers still connect. err is non-nil only when the file itself is not an
// mcpServers object.
func ParseConfig(data []byte) (servers []ServerConfig, err error) {
	return ParseConfigEnv(data, lookupEnv)
}

// ParseConfigEnv is ParseConfig expanding variables from lookup instead of
// the process environment.
func ParseConfigEnv(data []byte, lookup func(string) (string, bool)) (servers []ServerConfig, err error) {
	return parseConfig(configText{data: data}, lookup)
}

// lookupEnv is the process environment.
var lookupEnv = os.LookupEnv

// parseConfig reads an mcpServers document. Its problems say where they
// are (ConfigError) in JSON's words, never in the decoder's Go ones.
func parseConfig(t configText, lookup func(string) (string, bool)) (servers []ServerConfig, err error) {
	start, err := t.checkDocument()
	if err != nil {
		return nil, err
	}
	var list *member
	for _, m := range members(bytes.TrimSpace(t.data), start) {
		if m.key == "mcpServers" {
			list = &m
		}
	}
	if list == nil {
		return nil, t.errorAt(start, `no "mcpServers" key: the file needs %s`, serversFileShape)
	}
	if kind := jsonKind(list.value); kind != "an object" {
		return nil, t.errorAt(list.at, `"mcpServers" must be an object of servers by name, not %s`, kind)
	}
	entries := map[string]member{}
	var names []string
	for _, m := range members(list.value, list.at) {
		if _, dup := entries[m.key]; !dup {
			names = append(names, m.key)
		}
		entries[m.key] = m // the last one wins, as in any JSON object
	}
	slices.Sort(names)
	for _, name := range names {
		servers = append(servers, parseEntry(t, name, entries[name], lookup))
	}
	return servers, nil
}

func parseEntry(t configText, name string, m member, lookup func(string) (string, bool)) ServerConfig {
	cfg := ServerConfig{Name: name}
	if kind := jsonKind(m.value); kind != "an object" {
		cfg.Err = t.errorAt(m.at, "mcp server %q: its entry must be an object, not %s", name, kind)
		return cfg
	}
	var e fileEntry
	if err := json.Unmarshal(m.value, &e); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			key, problem := typeProblem(typeErr)
			at := m.at
			for _, k := range members(m.value, m.at) {
				if k.key == key {
					at = k.at
				}
			}
			cfg.Err = t.errorAt(at, "mcp server %q: %s", name, problem)
			return cfg
		}
		cfg.Err = t.errorAt(m.at, "mcp server %q: its entry is not a valid server object: %v", name, err)
		return cfg
	}
	cfg.Disabled = e.Disabled
	if e.Disabled {
		// A disabled entry is often one whose secrets are not set in this
		// environment: do not fail it for them.
		return cfg
	}
	if err := expandEntry(&e, lookup); err != nil {
		cfg.Err = fmt.Errorf("mcp server %q: %w", name, err)
		return cfg
	}
	if err := expandOAuth(e.OAuth, lookup); err != nil {
		cfg.Err = fmt.Errorf("mcp server %q: %w", name, err)
		return cfg
	}
	cfg.Type, cfg.Command, cfg.Args, cfg.Env, cfg.Cwd = e.Type, e.Command, e.Args, e.Env, e.Cwd
	cfg.URL, cfg.Headers, cfg.OAuth = e.URL, e.Headers, e.OAuth
	for _, d := range []struct {
		key   string
		value float64
		into  *time.Duration
	}{{"connectTimeoutSec", e.ConnectTimeoutSec, &cfg.ConnectTimeout}, {"callTimeoutSec", e.CallTimeoutSec, &cfg.CallTimeout}} {
		if d.value < 0 {
			cfg.Err = fmt.Errorf("mcp server %q: %s must not be negative", name, d.key)
			return cfg
		}
		*d.into = time.Duration(d.value * float64(time.Second))
	}
	if e.MaxReplyMB < 0 {
		cfg.Err = fmt.Errorf("mcp server %q: maxReplyMB must not be negative", name)
		return cfg
	}
	cfg.MaxReplyBytes = int64(e.MaxReplyMB * (1 << 20))
	cfg.Err = cfg.Validate()
	return cfg
}

// Validate reports why a server entry cannot be used, or nil.
func (c ServerConfig) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("mcp server %q: %s", c.Name, fmt.Sprintf(format, args...))
	}
	if c.Name == "" {
		return errors.New("mcp server with an empty name")
	}
	if c.Disabled {
		return nil // never started: nothing else about it matters
	}
	if strings.ContainsAny(c.Name, " \t\r\n") {
		return bad("name must not contain white space")
	}
	ways := 0
	for _, set := range []bool{c.Command != "", c.URL != "", c.Dial != nil} {
		if set {
			ways++
		}
	}
	switch {
	case ways == 0:
		return bad(`needs "command" (stdio) or "url" (HTTP)`)
	case ways > 1:
		return bad(`has both "command" and "url"; use one`)
	}
	switch c.Type {
	case "", "stdio", "http", "streamable-http", "streamableHttp", "sse":
	default:
		return bad("unknown type %q (want stdio, http or sse)", c.Type)
	}
	if c.Command != "" && c.Type != "" && c.Type != "stdio" {
		return bad("type %q needs a url, not a command", c.Type)
	}
	if c.URL != "" {
		if c.Type == "stdio" {
			return bad(`type "stdio" needs a command, not a url`)
		}
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad("url %q is not an http or https URL", c.URL)
		}
	}
	if c.OAuth != nil {
		if c.URL == "" || c.Type == "sse" {
			return bad(`"oauth" needs a streamable HTTP "url"`)
		}
		if err := c.OAuth.Validate(); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}

// maxReplyBytes is the server's reply limit, or the default.
func (c ServerConfig) maxReplyBytes() int {
	if c.MaxReplyBytes > 0 {
		return int(c.MaxReplyBytes)
	}
	return DefaultMaxReplyBytes
}
