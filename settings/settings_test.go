package settings_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/settings"
)

func ptr[T any](v T) *T { return &v }

func TestParseSettings(t *testing.T) {
	got, err := settings.ParseSettings([]byte(`{
  "enableExec": false,
  "theme": {"unknown": ["keys", "are", "ignored"]},
  "permissions": {"allow": ["mcp__github__get_me"], "ask": ["mcp__github"], "deny": ["Exec"], "defaultMode": "x"},
  "disallowedTools": ["mcp__stripe"]
}`))
	if err != nil {
		t.Fatal(err)
	}
	want := settings.Settings{
		EnableExec: ptr(false),
		Permissions: settings.PermissionRules{
			Allow: []string{"mcp__github__get_me"}, Ask: []string{"mcp__github"}, Deny: []string{"Exec"},
		},
		DisallowedTools: []string{"mcp__stripe"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, empty := range []string{"", "  \n", "{}", `{"permissions": null}`} {
		s, err := settings.ParseSettings([]byte(empty))
		if err != nil || s.EnableExec != nil || len(s.Permissions.Allow) != 0 {
			t.Errorf("ParseSettings(%q) = %+v, %v; want empty settings", empty, s, err)
		}
	}
}

func TestParseSettingsErrorsSayWhere(t *testing.T) {
	cases := []struct{ doc, want string }{
		{"{\n  \"enableExec\": false,\n}", "line 3, column 1"},
		{`{"enableExec": "no"}`, `"enableExec" must be true or false, not a JSON string`},
		{`{"permissions": {"allow": "mcp__a"}}`, `"permissions.allow" must be an array of strings`},
		{`{"permissions": []}`, `"permissions" must be an object`},
		{`{"permissions": {"deny": ["mcp__a", "mcp__"]}}`, `permissions.deny[1]: rule "mcp__" names no server`},
		{`{"disallowedTools": [""]}`, `disallowedTools[0]: empty rule`},
		{`["enableExec"]`, "must be a JSON object"},
		{`null`, "must be a JSON object"},
		{`{} {}`, "invalid JSON"},
	}
	for _, c := range cases {
		_, err := settings.ParseSettings([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSettings(%q) = %v, want an error containing %q", c.doc, err, c.want)
		}
	}
}

// Proves SWITCH-1.
func TestSWITCH1_EnableExecDefaultsToTrue(t *testing.T) {
	if cfg := settings.Merge(); !cfg.EnableExec {
		t.Error("no settings at all: EnableExec = false, want true")
	}
	file := settings.Settings{Permissions: settings.PermissionRules{Allow: []string{"mcp__a"}}}
	if cfg := settings.Merge(file, settings.Settings{}); !cfg.EnableExec {
		t.Error("enableExec unset in every layer: EnableExec = false, want true")
	}
}

// Proves SWITCH-2.
func TestSWITCH2_SettingsFileCanDisableExec(t *testing.T) {
	s, err := settings.ParseSettings([]byte(`{"enableExec": false}`))
	if err != nil {
		t.Fatal(err)
	}
	if settings.Merge(s).EnableExec {
		t.Error("enableExec: false in the settings file left Exec enabled")
	}
}

// Proves SWITCH-3.
func TestSWITCH3_RemoteBeatsManagedBeatsFileBeatsDefault(t *testing.T) {
	on, off := settings.Settings{EnableExec: ptr(true)}, settings.Settings{EnableExec: ptr(false)}
	unset := settings.Settings{}
	cases := []struct {
		name                  string
		file, managed, remote settings.Settings
		want                  bool
	}{
		{"remote off over file on", on, unset, off, false},
		{"remote on over file off", off, unset, on, true},
		{"remote on over managed off", off, off, on, true},
		{"managed off over file on", on, off, unset, false},
		{"nothing delivered: file decides", off, unset, unset, false},
		{"nothing anywhere: default", unset, unset, unset, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := settings.Merge(c.file, c.managed, c.remote).EnableExec; got != c.want {
				t.Errorf("EnableExec = %v, want %v", got, c.want)
			}
		})
	}
}

func TestMergeUnitesRulesWithoutRepeats(t *testing.T) {
	file := settings.Settings{
		Permissions:     settings.PermissionRules{Allow: []string{"mcp__a", "mcp__b"}, Deny: []string{"mcp__x"}},
		DisallowedTools: []string{"mcp__d"},
	}
	remote := settings.Settings{
		Permissions:     settings.PermissionRules{Allow: []string{"mcp__b", "mcp__c"}, Ask: []string{"mcp__q"}},
		DisallowedTools: []string{"mcp__d", "Exec"},
	}
	got := settings.Merge(file, remote)
	want := settings.Config{
		EnableExec: true,
		Allow:      []string{"mcp__a", "mcp__b", "mcp__c"}, Ask: []string{"mcp__q"}, Deny: []string{"mcp__x"},
		DisallowedTools: []string{"mcp__d", "Exec"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got.Allow[0] = "changed"
	if file.Permissions.Allow[0] != "mcp__a" {
		t.Error("Merge's result shares memory with its input")
	}
}
