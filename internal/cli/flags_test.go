package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"
)

// defaultLimits are the limits the flags default to: the library's own.
var defaultLimits = limitFlags{timeout: 30 * time.Second, maxCalls: 100, memoryMB: 512, stateMB: 64}

func TestParseExecFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want execFlags
	}{
		{"script file", []string{"--script", "a.js"}, execFlags{script: "a.js", limitFlags: defaultLimits}},
		{"stdin", []string{"-"}, execFlags{script: "-", limitFlags: defaultLimits}},
		{"stdin before flags", []string{"-", "--json", "--ask", "allow"}, execFlags{script: "-", jsonOut: true, ask: askAllow, limitFlags: defaultLimits}},
		{"everything", []string{
			"--servers", "s.json", "--settings", "set.json", "--timeout", "2s", "--max-calls", "3",
			"--memory-mb", "256", "--ask", "prompt", "--json", "--verbose", "--script", "x.js", "--state", "st", "--state-mb", "8",
		}, execFlags{
			poolFlags:  poolFlags{servers: "s.json", settings: "set.json", verbose: true},
			limitFlags: limitFlags{timeout: 2 * time.Second, maxCalls: 3, memoryMB: 256, stateMB: 8},
			ask:        askPrompt, jsonOut: true, script: "x.js", state: "st",
		}},
		{"oauth", []string{
			"--oauth-tokens", "tokens", "--open-browser", "--oauth-port", "8976", "--auth-wait", "1m", "-",
		}, execFlags{script: "-", limitFlags: defaultLimits, poolFlags: poolFlags{
			oauth: oauthFlags{tokens: "tokens", openBrowser: true, port: 8976, wait: time.Minute},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			got, err := parseExecFlags(demoProgram, tt.args, &errOut)
			if err != nil {
				t.Fatalf("parseExecFlags(%q): %v\n%s", tt.args, err, errOut.String())
			}
			if got != tt.want {
				t.Errorf("parseExecFlags(%q) = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
}

func TestParseExecFlagsRejectsBadLines(t *testing.T) {
	tests := []struct {
		args    []string
		message string
	}{
		{nil, "no script"},
		{[]string{"--script", "a.js", "-"}, "not both"},
		{[]string{"-", "-"}, "more than once"},
		{[]string{"a.js"}, `unexpected argument "a.js"`},
		{[]string{"--ask", "maybe", "-"}, "--ask must be"},
		{[]string{"--ask", "prompt", "-"}, "--script FILE"},
		{[]string{"--timeout", "-1s", "-"}, "--timeout"},
		{[]string{"--timeout", "0s", "-"}, "--timeout"},
		{[]string{"--max-calls", "-1", "-"}, "--max-calls"},
		{[]string{"--memory-mb", "-5", "-"}, "--memory-mb"},
		{[]string{"--memory-mb", "64", "-"}, "at least 128"},
		{[]string{"--state-mb", "0", "-"}, "--state-mb must be positive"},
		{[]string{"--bogus", "-"}, "not defined"},
	}
	for _, tt := range tests {
		var errOut bytes.Buffer
		_, err := parseExecFlags(demoProgram, tt.args, &errOut)
		if !errors.Is(err, errUsage) {
			t.Errorf("parseExecFlags(%q) error = %v, want errUsage", tt.args, err)
		}
		if !strings.Contains(errOut.String(), tt.message) || !strings.Contains(errOut.String(), "usage: demo exec") {
			t.Errorf("parseExecFlags(%q) said %q, want %q and the usage", tt.args, errOut.String(), tt.message)
		}
	}
}

// The installable tool has no built-in pool: --servers is required.
func TestMcpexecNeedsServers(t *testing.T) {
	var errOut bytes.Buffer
	for name, parse := range map[string]func() error{
		"exec":    func() error { _, err := parseExecFlags(mcpexecProgram, []string{"-"}, &errOut); return err },
		"catalog": func() error { _, err := parseCatalogFlags(mcpexecProgram, nil, &errOut); return err },
		"tools":   func() error { _, err := parseToolsFlags(mcpexecProgram, nil, &errOut); return err },
		"serve":   func() error { _, err := parseServeFlags(mcpexecProgram, nil, &errOut); return err },
	} {
		errOut.Reset()
		if err := parse(); !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), "mcpexec "+name+": --servers FILE is required") {
			t.Errorf("%s without --servers: %v, %q", name, err, errOut.String())
		}
	}
}

// Flag help shows the real defaults, not zeros standing for them.
func TestHelpShowsTheRealDefaults(t *testing.T) {
	var errOut bytes.Buffer
	if _, err := parseExecFlags(mcpexecProgram, []string{"-h"}, &errOut); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("exec -h = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"usage: mcpexec exec", "(default 30s)", "(default 100)", "(default 512)", "(required)"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("exec -h printed %q, want %q", errOut.String(), want)
		}
	}
	errOut.Reset()
	_, _ = parseServeFlags(mcpexecProgram, []string{"-h"}, &errOut)
	for _, want := range []string{"usage: mcpexec serve", "(default 4000)", "(default 30s)", "-http ADDR", tokenEnv} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("serve -h printed %q, want %q", errOut.String(), want)
		}
	}
}

func TestParseCatalogToolsAndServeFlags(t *testing.T) {
	var errOut bytes.Buffer
	c, err := parseCatalogFlags(demoProgram, []string{"--budget", "50", "--servers", "s.json", "--settings", "x.json"}, &errOut)
	if err != nil || c != (catalogFlags{poolFlags: poolFlags{servers: "s.json", settings: "x.json"}, budget: 50}) {
		t.Errorf("catalog flags = %+v, %v", c, err)
	}
	if _, err := parseCatalogFlags(demoProgram, []string{"--budget", "-1"}, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("negative budget: %v, want errUsage", err)
	}
	tf, err := parseToolsFlags(demoProgram, []string{"--settings", "x.json"}, &errOut)
	if err != nil || tf != (toolsFlags{poolFlags{settings: "x.json"}}) {
		t.Errorf("tools flags = %+v, %v", tf, err)
	}
	if _, err := parseToolsFlags(demoProgram, []string{"extra"}, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("tools with an argument: %v, want errUsage", err)
	}
	sf, err := parseServeFlags(mcpexecProgram, []string{"--servers", "s.json", "--http", ":8080", "--allow-origin", "https://a.example", "--allow-origin", "https://b.example"}, &errOut)
	if err != nil || sf.http != ":8080" || len(sf.allowOrigins) != 2 || sf.budget != 4000 || sf.parkTimeout != 15*time.Minute {
		t.Errorf("serve flags = %+v, %v", sf, err)
	}
	if sf, err := parseServeFlags(mcpexecProgram, []string{"--servers", "s.json", "--park-timeout", "90s"}, &errOut); err != nil || sf.parkTimeout != 90*time.Second {
		t.Errorf("--park-timeout 90s: %+v, %v", sf, err)
	}
	if _, err := parseServeFlags(mcpexecProgram, []string{"--servers", "s.json", "--park-timeout", "0s"}, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("--park-timeout 0s: %v, want errUsage", err)
	}
	if _, err := parseServeFlags(mcpexecProgram, []string{"--servers", "s.json", "--allow-origin", "https://a.example"}, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("--allow-origin without --http: %v, want errUsage", err)
	}
	s, err := parseServeBuiltinFlags(demoProgram, []string{"srv", "--offline-while", "/f"}, &errOut)
	if err != nil || s != (serveBuiltinFlags{name: "srv", offlineWhile: "/f"}) {
		t.Errorf("serve-mcp flags = %+v, %v", s, err)
	}
	if _, err := parseServeBuiltinFlags(demoProgram, nil, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("serve-mcp without a name: %v, want errUsage", err)
	}
}

func TestListenAddrBindsABarePortToLoopback(t *testing.T) {
	for in, want := range map[string]string{
		":8080":          "127.0.0.1:8080",
		"0.0.0.0:8080":   "0.0.0.0:8080",
		"localhost:9":    "localhost:9",
		"[::1]:8080":     "[::1]:8080",
		"not an address": "not an address",
	} {
		if got := listenAddr(in); got != want {
			t.Errorf("listenAddr(%q) = %q, want %q", in, got, want)
		}
	}
}
