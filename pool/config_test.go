package pool_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mcpexec/mcpexec/pool"
)

func TestParseConfigGoodAndBadEntries(t *testing.T) {
	file := `{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"A": "1"}},
		"remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}},
		"legacy": {"type": "sse", "url": "http://localhost:9/sse"},
		"both": {"command": "x", "url": "https://x"},
		"neither": {"env": {}},
		"ftp": {"url": "ftp://x"},
		"odd": {"type": "carrier-pigeon", "command": "x"},
		"notobj": 5,
		"args": {"command": "x", "args": "not a list"}
	}}`
	servers, err := pool.ParseConfig([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var order []string
	for _, s := range servers {
		order = append(order, s.Name)
		if s.Err != nil {
			got[s.Name] = s.Err.Error()
		} else {
			got[s.Name] = "ok"
		}
	}
	if diff := cmp.Diff([]string{"args", "both", "fs", "ftp", "legacy", "neither", "notobj", "odd", "remote"}, order); diff != "" {
		t.Errorf("order:\n%s", diff)
	}
	want := map[string]string{
		"fs":      "ok",
		"remote":  "ok",
		"legacy":  "ok",
		"both":    `mcp server "both": has both "command" and "url"; use one`,
		"neither": `mcp server "neither": needs "command" (stdio) or "url" (HTTP)`,
		"ftp":     `mcp server "ftp": url "ftp://x" is not an http or https URL`,
		"odd":     `mcp server "odd": unknown type "carrier-pigeon" (want stdio, http or sse)`,
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %q, want %q", name, got[name], w)
		}
	}
	for name, w := range map[string]string{
		"notobj": `mcp server "notobj": its entry must be an object, not a number`,
		"args":   `mcp server "args": "args" must be an array of strings, not a string`,
	} {
		if !strings.HasPrefix(got[name], "line ") || !strings.HasSuffix(got[name], w) {
			t.Errorf("%s: %q, want its line and column, then %q", name, got[name], w)
		}
	}
	fs := servers[2]
	wantFS := pool.ServerConfig{Name: "fs", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Env: map[string]string{"A": "1"}}
	if diff := cmp.Diff(wantFS, fs, cmpopts.IgnoreFields(pool.ServerConfig{}, "Dial")); diff != "" {
		t.Error(diff)
	}
}

func TestParseConfigRejectsWhatIsNotAServersFile(t *testing.T) {
	for _, file := range []string{``, `[]`, `{"servers": {}}`, `{"mcpServers": 3}`, `{`} {
		if _, err := pool.ParseConfig([]byte(file)); err == nil {
			t.Errorf("%q accepted", file)
		}
	}
	servers, err := pool.ParseConfig([]byte(`{"mcpServers": {}}`))
	if err != nil || len(servers) != 0 {
		t.Errorf("empty servers: %v %v", servers, err)
	}
}

func TestBadEntryFailsOnlyItself(t *testing.T) {
	bad := pool.ServerConfig{Name: "bad", URL: "nope"}
	bad.Err = bad.Validate()
	m := start(t, []pool.ServerConfig{bad, behaviourInMemory("b")}, pool.Options{})
	if st := statusOf(t, m, "bad"); st.State != pool.StateInvalid || st.Err == nil {
		t.Fatalf("status %+v", st)
	}
	if st := statusOf(t, m, "b"); st.State != pool.StateConnected || m.Snapshot().Len() == 0 {
		t.Fatalf("the good server: %+v", st)
	}
	if _, err := pool.New(t.Context(), []pool.ServerConfig{behaviourInMemory("x"), behaviourInMemory("x")}, pool.Options{}); err == nil {
		t.Fatal("two servers with one name accepted")
	}
}

func TestParseConfigExpandsVariablesFromTheEnvironment(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cret", "HOME": "/home/me", "EMPTY": ""}
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	file := `{"mcpServers": {
		"gh": {"command": "${HOME}/bin/gh-mcp", "args": ["--port", "${PORT:-8080}", "$$literal", "$HOME"],
		       "env": {"GITHUB_TOKEN": "${TOKEN}", "MODE": "${EMPTY:-fallback}"}, "cwd": "${HOME}/work"},
		"remote": {"url": "https://${HOST:-mcp.example.com}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"unset": {"command": "x", "env": {"A": "1", "KEY": "${MISSING_KEY}"}},
		"bad": {"command": "x", "args": ["${not a name}"]},
		"open": {"url": "https://x/${TOKEN"},
		"off": {"command": "x", "env": {"KEY": "${MISSING_KEY}"}, "disabled": true}
	}}`
	servers, err := pool.ParseConfigEnv([]byte(file), lookup)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]pool.ServerConfig{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	gh := byName["gh"]
	if gh.Err != nil || gh.Command != "/home/me/bin/gh-mcp" || gh.Cwd != "/home/me/work" ||
		!cmp.Equal(gh.Args, []string{"--port", "8080", "$literal", "$HOME"}) ||
		!cmp.Equal(gh.Env, map[string]string{"GITHUB_TOKEN": "s3cret", "MODE": "fallback"}) {
		t.Errorf("gh = %+v", gh)
	}
	remote := byName["remote"]
	if remote.Err != nil || remote.URL != "https://mcp.example.com/mcp" || remote.Headers["Authorization"] != "Bearer s3cret" {
		t.Errorf("remote = %+v", remote)
	}
	wantErr := map[string]string{
		"unset": `mcp server "unset": env.KEY: environment variable MISSING_KEY is not set (write ${MISSING_KEY:-default} to give it a default)`,
		"bad":   `mcp server "bad": args[0]: ${not a name} is not a variable reference (want ${NAME} or ${NAME:-default})`,
		"open":  `mcp server "open": url: "${TOKEN" has a ${ without its closing }`,
	}
	for name, want := range wantErr {
		if got := byName[name].Err; got == nil || got.Error() != want {
			t.Errorf("%s: err = %v, want %s", name, got, want)
		}
	}
	if off := byName["off"]; !off.Disabled || off.Err != nil {
		t.Errorf("a disabled entry is not checked further: %+v", off)
	}
}

func TestParseConfigTimeoutsAndReplyLimit(t *testing.T) {
	servers, err := pool.ParseConfig([]byte(`{"mcpServers": {
		"a": {"command": "x", "connectTimeoutSec": 2.5, "callTimeoutSec": 600, "maxReplyMB": 256},
		"neg": {"command": "x", "callTimeoutSec": -1}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := servers[0]
	if a.Err != nil || a.ConnectTimeout != 2500*time.Millisecond || a.CallTimeout != 10*time.Minute || a.MaxReplyBytes != 256<<20 {
		t.Errorf("a = %+v", a)
	}
	if neg := servers[1]; neg.Err == nil || neg.Err.Error() != `mcp server "neg": callTimeoutSec must not be negative` {
		t.Errorf("neg: %v", neg.Err)
	}
}

// An entry's "oauth" object names the client its authorization uses, with
// ${VAR} expanded like the rest of the entry; it only makes sense for a
// streamable HTTP server.
func TestParseConfigOAuthEntries(t *testing.T) {
	env := map[string]string{"GITHUB_SECRET": "s3cret"}
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	servers, err := pool.ParseConfigEnv([]byte(`{"mcpServers": {
		"github": {"url": "https://api.githubcopilot.com/mcp/", "oauth": {"clientId": "Iv1.abc", "clientSecret": "${GITHUB_SECRET}"}},
		"unset": {"url": "https://mcp.example/mcp", "oauth": {"clientId": "${NO_SUCH_CLIENT_ID}"}},
		"cimd": {"url": "https://mcp.example/mcp", "oauth": {"clientMetadataUrl": "https://app.example/client.json"}},
		"stdio": {"command": "x", "oauth": {}},
		"sse": {"type": "sse", "url": "https://mcp.example/sse", "oauth": {}},
		"secretOnly": {"url": "https://mcp.example/mcp", "oauth": {"clientSecret": "s"}},
		"badCIMD": {"url": "https://mcp.example/mcp", "oauth": {"clientMetadataUrl": "http://app.example/"}}
	}}`), lookup)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range servers {
		got[s.Name] = "ok"
		if s.Err != nil {
			got[s.Name] = s.Err.Error()
		}
		if s.Name == "github" && (s.OAuth == nil || s.OAuth.ClientID != "Iv1.abc" || s.OAuth.ClientSecret != "s3cret") {
			t.Errorf("github oauth = %+v", s.OAuth)
		}
	}
	want := map[string]string{
		"github":     "ok",
		"cimd":       "ok",
		"stdio":      `mcp server "stdio": "oauth" needs a streamable HTTP "url"`,
		"sse":        `mcp server "sse": "oauth" needs a streamable HTTP "url"`,
		"secretOnly": `mcp server "secretOnly": oauth: "clientSecret" needs a "clientId"`,
		"badCIMD":    `mcp server "badCIMD": oauth: "clientMetadataUrl" must be an https URL with a path`,
		"unset":      `mcp server "unset": oauth.clientId: environment variable NO_SUCH_CLIENT_ID is not set (write ${NO_SUCH_CLIENT_ID:-default} to give it a default)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}
