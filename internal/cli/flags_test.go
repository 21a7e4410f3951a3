package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"
)

func TestParseExecFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want execFlags
	}{
		{"script file", []string{"--script", "a.js"}, execFlags{script: "a.js"}},
		{"stdin", []string{"-"}, execFlags{script: "-"}},
		{"stdin before flags", []string{"-", "--json", "--ask", "allow"}, execFlags{script: "-", jsonOut: true, ask: askAllow}},
		{"everything", []string{
			"--servers", "s.json", "--settings", "set.json", "--timeout", "2s", "--max-calls", "3",
			"--memory-mb", "256", "--ask", "prompt", "--json", "--script", "x.js",
		}, execFlags{
			servers: "s.json", settings: "set.json", timeout: 2 * time.Second, maxCalls: 3,
			memoryMB: 256, ask: askPrompt, jsonOut: true, script: "x.js",
		}},
		{"oauth", []string{
			"--oauth-tokens", "tokens", "--open-browser", "--oauth-port", "8976", "--auth-wait", "1m", "-",
		}, execFlags{script: "-", oauth: oauthFlags{tokens: "tokens", openBrowser: true, port: 8976, wait: time.Minute}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			got, err := parseExecFlags(tt.args, &errOut)
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
		{[]string{"--max-calls", "-1", "-"}, "--max-calls"},
		{[]string{"--memory-mb", "-5", "-"}, "--memory-mb"},
		{[]string{"--memory-mb", "64", "-"}, "at least 128"},
		{[]string{"--bogus", "-"}, "not defined"},
	}
	for _, tt := range tests {
		var errOut bytes.Buffer
		_, err := parseExecFlags(tt.args, &errOut)
		if !errors.Is(err, errUsage) {
			t.Errorf("parseExecFlags(%q) error = %v, want errUsage", tt.args, err)
		}
		if !strings.Contains(errOut.String(), tt.message) || !strings.Contains(errOut.String(), "usage: demo exec") {
			t.Errorf("parseExecFlags(%q) said %q, want %q and the usage", tt.args, errOut.String(), tt.message)
		}
	}
}

func TestHelpIsNotAUsageError(t *testing.T) {
	var errOut bytes.Buffer
	if _, err := parseExecFlags([]string{"-h"}, &errOut); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("exec -h = %v, want flag.ErrHelp", err)
	}
	if !strings.Contains(errOut.String(), "-max-calls") {
		t.Errorf("exec -h printed %q, want the flags", errOut.String())
	}
}

func TestParseCatalogToolsAndServeFlags(t *testing.T) {
	var errOut bytes.Buffer
	c, err := parseCatalogFlags([]string{"--budget", "50", "--servers", "s.json"}, &errOut)
	if err != nil || c != (catalogFlags{servers: "s.json", budget: 50}) {
		t.Errorf("catalog flags = %+v, %v", c, err)
	}
	if _, err := parseCatalogFlags([]string{"--budget", "-1"}, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("negative budget: %v, want errUsage", err)
	}
	tf, err := parseToolsFlags([]string{"--settings", "x.json"}, &errOut)
	if err != nil || tf != (toolsFlags{settings: "x.json"}) {
		t.Errorf("tools flags = %+v, %v", tf, err)
	}
	if _, err := parseToolsFlags([]string{"extra"}, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("tools with an argument: %v, want errUsage", err)
	}
	s, err := parseServeFlags([]string{"srv", "--offline-while", "/f"}, &errOut)
	if err != nil || s != (serveFlags{name: "srv", offlineWhile: "/f"}) {
		t.Errorf("serve flags = %+v, %v", s, err)
	}
	if _, err := parseServeFlags(nil, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("serve-mcp without a name: %v, want errUsage", err)
	}
}
