package hotreload

import (
	"strings"
	"testing"
)

func TestWithAllowRuleKeepsEveryOtherKey(t *testing.T) {
	in := `{"model": "x", "enableExec": false, "hooks": {"b": [1, 2.50, 1e400], "a": null},
 "permissions": {"deny": ["mcp__stripe"], "allow": ["mcp__a__b"], "defaultMode": "plan"}, "z<&>": "<&>"}`
	out, changed, err := withAllowRule([]byte(in), "mcp__github__get_me")
	if err != nil || !changed {
		t.Fatalf("withAllowRule = %v, %v", changed, err)
	}
	want := `{
  "model": "x",
  "enableExec": false,
  "hooks": {
    "b": [
      1,
      2.50,
      1e400
    ],
    "a": null
  },
  "permissions": {
    "deny": [
      "mcp__stripe"
    ],
    "allow": [
      "mcp__a__b",
      "mcp__github__get_me"
    ],
    "defaultMode": "plan"
  },
  "z<&>": "<&>"
}
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestWithAllowRuleShapes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `{"permissions":{"allow":["R"]}}`},
		{"{}", `{"permissions":{"allow":["R"]}}`},
		{`{"permissions": null}`, `{"permissions":{"allow":["R"]}}`},
		{`{"permissions": {"allow": null}}`, `{"permissions":{"allow":["R"]}}`},
		{`{"a": 1, "permissions": {"ask": []}}`, `{"a":1,"permissions":{"ask":[],"allow":["R"]}}`},
		// encoding/json reads the last of repeated keys; that is the one edited.
		{`{"permissions": {"allow": ["x"]}, "permissions": {}}`, `{"permissions":{"allow":["x"]},"permissions":{"allow":["R"]}}`},
	}
	for _, c := range cases {
		out, changed, err := withAllowRule([]byte(c.in), "mcp__r")
		if err != nil || !changed {
			t.Fatalf("withAllowRule(%q) = %v, %v", c.in, changed, err)
		}
		got := strings.Join(strings.Fields(string(out)), "")
		if want := strings.ReplaceAll(c.want, `"R"`, `"mcp__r"`); got != want {
			t.Errorf("withAllowRule(%q) = %s, want %s", c.in, got, want)
		}
	}
}

func TestWithAllowRuleLeavesBadOrDoneDocumentsAlone(t *testing.T) {
	doc := `{"permissions": {"allow": ["mcp__r"]}}`
	out, changed, err := withAllowRule([]byte(doc), "mcp__r")
	if err != nil || changed || string(out) != doc {
		t.Errorf("rule already present: %q, %v, %v", out, changed, err)
	}
	for _, bad := range []string{`{"permissions": `, `[1]`, `{"enableExec": 1}`, `{"permissions": {"allow": [1]}}`} {
		if _, _, err := withAllowRule([]byte(bad), "mcp__r"); err == nil {
			t.Errorf("withAllowRule(%q) accepted a malformed document", bad)
		}
	}
}
