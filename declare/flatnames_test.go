package declare

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/internal/fixtures"
	"github.com/mcpexec/mcpexec/pool"
)

// modelAPIName is the tool-name rule of the major model APIs, written out
// independently of ValidFlatName.
var modelAPIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func fixtureServer(t *testing.T, file string) pool.ServerTools {
	t.Helper()
	p, err := fixtures.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	st := pool.ServerTools{Server: p.Server}
	for _, tl := range p.Tools {
		st.Tools = append(st.Tools, pool.Tool{Leaf: tl.Name, Description: tl.Description, InputSchema: tl.InputSchema})
	}
	return st
}

// Proves SWITCH-2.
func TestSWITCH2_FlatNamesTheModelAPIsAccept(t *testing.T) {
	snap := snapshot(nil, fixtureServer(t, "lark-all"), fixtureServer(t, "lark-dotnames"), fixtureServer(t, "github-go-default"))
	decls := Assemble(snap, disabled, Agent{})
	if len(decls) != snap.Len() {
		t.Fatalf("%d declarations for %d tools", len(decls), snap.Len())
	}
	flat := FlatNamesOf(snap)
	seen := map[string]string{}
	aliased := 0
	snap.Each(func(tl pool.Tool) bool {
		d := flat.Declared(tl.Name)
		if !modelAPIName.MatchString(d) {
			t.Errorf("%s is declared as %q, which the model APIs reject", tl.Name, d)
		}
		if other, dup := seen[d]; dup {
			t.Errorf("%s and %s are both declared as %s", other, tl.Name, d)
		}
		seen[d] = tl.Name
		if got := flat.Real(d); got != tl.Name {
			t.Errorf("%s: declared as %s, which maps back to %s", tl.Name, d, got)
		}
		if modelAPIName.MatchString(tl.Name) != (d == tl.Name) {
			t.Errorf("%s: declared as %s; only names the APIs reject may change", tl.Name, d)
		}
		if d != tl.Name {
			aliased++
		}
		return true
	})
	// lark-all has 20 names over 64 characters with their prefix, and
	// every one of lark-dotnames' 19 tools has dots.
	if aliased != 20+19 {
		t.Errorf("%d tools aliased, want 39", aliased)
	}
	for _, d := range decls {
		if _, ok := seen[d.Name]; !ok {
			t.Errorf("declaration %s is not a mapped name", d.Name)
		}
	}
	// Readable where it can be: dots become underscores.
	if got := flat.Declared("mcp__lark-dotnames__bitable.v1.app.create"); got != "mcp__lark-dotnames__bitable_v1_app_create" {
		t.Errorf("dotted name declared as %s", got)
	}
	// Two long names that share their first 64 characters get different
	// aliases, each the shared start and a hash.
	a := flat.Declared("mcp__lark-all__apaas_v1_applicationRecordPermissionMember_batchCreateAuthorization")
	b := flat.Declared("mcp__lark-all__apaas_v1_applicationRecordPermissionMember_batchRemoveAuthorization")
	if a == b || len(a) != MaxFlatNameLen || !strings.HasPrefix(a, "mcp__lark-all__apaas_v1_applicationRecordPermission") {
		t.Errorf("long names declared as %s and %s", a, b)
	}
}

// Proves SWITCH-2.
func TestSWITCH2_FlatAliasesAreStableAndCollisionFree(t *testing.T) {
	names := []string{
		"mcp__s__a.b", // readable alias mcp__s__a_b is a real name below
		"mcp__s__a_b", // valid: keeps its name
		"mcp__s__c.d", // two names with the same readable alias
		"mcp__s__c d", //
		"mcp__s__e.f", // alone: readable alias
		"mcp__s__" + strings.Repeat("x", 70),
		"mcp__s__" + strings.Repeat("x", 70) + "y",
	}
	f := NewFlatNames(names)
	if f.Declared("mcp__s__a_b") != "mcp__s__a_b" || f.Real("mcp__s__a_b") != "mcp__s__a_b" {
		t.Error("a valid name must keep its name and map to itself")
	}
	if got := f.Declared("mcp__s__e.f"); got != "mcp__s__e_f" {
		t.Errorf("e.f declared as %s", got)
	}
	declared := map[string]bool{}
	for _, n := range names {
		d := f.Declared(n)
		if !modelAPIName.MatchString(d) || declared[d] || f.Real(d) != n {
			t.Errorf("%s declared as %s (taken twice: %v, maps back to %s)", n, d, declared[d], f.Real(d))
		}
		declared[d] = true
	}
	// The pool's order does not matter, and neither do unrelated tools.
	for range 20 {
		shuffled := slices.Clone(names)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		g := NewFlatNames(append(shuffled, "mcp__other__tool", "mcp__other__dotted.tool"))
		for _, n := range names {
			if g.Declared(n) != f.Declared(n) {
				t.Fatalf("%s: declared as %s, then as %s", n, f.Declared(n), g.Declared(n))
			}
		}
	}
	// A name that is nobody's declaration maps to itself: the funnel will
	// say it is unknown.
	if got := f.Real("mcp__s__nothing"); got != "mcp__s__nothing" {
		t.Errorf("unknown name mapped to %s", got)
	}
}
