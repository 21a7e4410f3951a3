package mcpexec_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/fixtures"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

// Proves SWITCH-2, PERM-1.
func TestSWITCH2_PERM1_FlatCallsUnderAnAliasReachTheRealToolThroughTheGate(t *testing.T) {
	// A server whose names the model APIs reject: lark's dotted names and
	// two of its 67-character names.
	dotted, err := fixtures.Load("lark-dotnames")
	if err != nil {
		t.Fatal(err)
	}
	all, err := fixtures.Load("lark-all")
	if err != nil {
		t.Fatal(err)
	}
	replay := &testservers.Replay{}
	for _, tl := range dotted.Tools {
		replay.Tools = append(replay.Tools, tl.Raw)
	}
	for _, tl := range all.Tools {
		if strings.HasPrefix(tl.Name, "apaas_v1_applicationRecordPermissionMember_batch") {
			replay.Tools = append(replay.Tools, tl.Raw)
		}
	}
	const (
		allowed = "mcp__lark__bitable.v1.app.create"
		denied  = "mcp__lark__im.v1.message.create"
		asked   = "mcp__lark__apaas_v1_applicationRecordPermissionMember_batchRemoveAuthorization"
	)
	settings := `{"enableExec": false, "permissions": {"allow": ["mcp__lark"], "deny": ["` + denied + `"], "ask": ["` + asked + `"]}}`
	f := startWith(t, settings, permissions.Reject, pool.ServerConfig{Name: "lark", Dial: replay.Dial})

	apiName := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	names := declared(f)
	if slices.Contains(names, "Exec") || len(names) != len(replay.Tools)-1 { // the denied tool is not declared
		t.Fatalf("declarations: %v", names)
	}
	alias := map[string]string{} // real → declared, found by the declared name's shape
	for _, n := range names {
		if !apiName.MatchString(n) {
			t.Errorf("declared %q, which the model APIs reject", n)
		}
		switch {
		case n == "mcp__lark__bitable_v1_app_create":
			alias[allowed] = n
		case strings.HasPrefix(n, "mcp__lark__apaas_v1_applicationRecordPermissionMember_b"):
			alias[n] = n // both long ones: told apart by calling them below
		}
	}
	if alias[allowed] == "" || len(alias) != 3 {
		t.Fatalf("aliases not found among %v", names)
	}

	call := func(name string) (ok bool, text string) {
		res := f.sys.CallFlat(context.Background(), name, json.RawMessage(`{}`))
		return res.OK, res.Text
	}
	// The model calls the alias; the server sees the real name.
	if ok, text := call(alias[allowed]); !ok || text != "called bitable.v1.app.create" {
		t.Errorf("alias call: ok=%v %q", ok, text)
	}
	// Rules name the real tool: a denied tool leaves the pool, so the alias
	// it would have had reaches nothing.
	if ok, text := call("mcp__lark__im_v1_message_create"); ok || strings.Contains(text, "called") {
		t.Errorf("denied tool called through its alias: ok=%v %q", ok, text)
	}
	// An ask rule on the real name asks about the real name, and the
	// other long name runs without asking.
	ran := 0
	for _, n := range names {
		if !strings.HasPrefix(n, "mcp__lark__apaas_v1_applicationRecordPermissionMember_b") {
			continue
		}
		if ok, text := call(n); ok {
			ran++
			if text != "called apaas_v1_applicationRecordPermissionMember_batchCreateAuthorization" {
				t.Errorf("%s reached %q", n, text)
			}
		}
	}
	if q := f.prompter.questions(); ran != 1 || !slices.Equal(q, []string{asked}) {
		t.Errorf("ran %d long-named tools, asked about %v; want 1 and the real name %s", ran, q, asked)
	}
	// The real name still works when a host passes it as is.
	if ok, _ := call(allowed); !ok {
		t.Error("the real name must stay callable")
	}
}
