package pool_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpexec/mcpexec/internal/fixtures"
	"github.com/mcpexec/mcpexec/pool"
)

func leaves(server string, names ...string) pool.ServerTools {
	st := pool.ServerTools{Server: server}
	for _, n := range names {
		st.Tools = append(st.Tools, pool.Tool{Leaf: n, InputSchema: json.RawMessage(`{"type":"object"}`)})
	}
	return st
}

func TestNFR2_BuildNamesSortsAndExcludes(t *testing.T) {
	cases := []struct {
		name      string
		servers   []pool.ServerTools
		exclude   pool.Exclude
		want      []string
		conflicts []string
	}{
		{name: "empty", want: nil},
		{
			name:    "sorted by full name across servers",
			servers: []pool.ServerTools{leaves("zeta", "b", "a"), leaves("alpha", "z")},
			want:    []string{"mcp__alpha__z", "mcp__zeta__a", "mcp__zeta__b"},
		},
		{
			// CONV-6: one exclusion for declarations, catalog and calls.
			name:    "CONV-6 excluded tools are not in the pool",
			servers: []pool.ServerTools{leaves("s", "read", "write", "delete")},
			exclude: func(n string) bool { return strings.HasSuffix(n, "__delete") },
			want:    []string{"mcp__s__read", "mcp__s__write"},
		},
		{
			name:    "a whole server excluded",
			servers: []pool.ServerTools{leaves("s", "a"), leaves("t", "a")},
			exclude: func(n string) bool { return strings.HasPrefix(n, "mcp__t__") },
			want:    []string{"mcp__s__a"},
		},
		{
			name:    "a server listing a name twice keeps one",
			servers: []pool.ServerTools{leaves("s", "a", "a")},
			want:    []string{"mcp__s__a"},
		},
		{
			// EDGE-17: two servers produce one full name; it could route to
			// either, so neither gets it.
			name:      "EDGE-17 ambiguous full names are left out",
			servers:   []pool.ServerTools{leaves("a__b", "c", "d"), leaves("a", "b__c", "e")},
			want:      []string{"mcp__a__b__d", "mcp__a__e"},
			conflicts: []string{"mcp__a__b__c"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := pool.Build(c.servers, c.exclude)
			if diff := cmp.Diff(c.want, names(s)); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.conflicts, s.Conflicts()); diff != "" {
				t.Errorf("conflicts (-want +got):\n%s", diff)
			}
			if s.Len() != len(c.want) {
				t.Errorf("Len = %d", s.Len())
			}
		})
	}
}

func TestEDGE17_ServerNameWithDoubleUnderscoreRoutesByLookup(t *testing.T) {
	s := pool.Build([]pool.ServerTools{leaves("my__srv", "do_it"), leaves("my", "other")}, nil)
	tool, ok := s.Lookup("mcp__my__srv__do_it")
	if !ok {
		t.Fatal("lookup failed")
	}
	// Routing takes server and leaf from the entry, never from a split.
	if tool.Server != "my__srv" || tool.Leaf != "do_it" {
		t.Fatalf("routes to %q / %q", tool.Server, tool.Leaf)
	}
	// Grouping uses split("__")[1], so both servers share the key "my".
	for _, name := range names(s) {
		if got := pool.GroupKey(name); got != "my" {
			t.Errorf("GroupKey(%q) = %q, want my", name, got)
		}
	}
}

func TestEDGE17_GroupKeyIsSecondSplitSegment(t *testing.T) {
	for _, name := range []string{"mcp__a__b", "mcp__a__b__c", "mcp____x", "mcp__a", "plain", "", "mcp__srv.v1__t"} {
		want := ""
		if parts := strings.Split(name, "__"); len(parts) > 1 {
			want = parts[1]
		}
		if got := pool.GroupKey(name); got != want {
			t.Errorf("GroupKey(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSnapshotIsImmutable(t *testing.T) {
	s := pool.Build([]pool.ServerTools{leaves("s", "a", "b")}, nil)
	tools := s.Tools()
	tools[0].Name = "changed"
	if got := names(s); got[0] != "mcp__s__a" {
		t.Fatalf("snapshot changed through Tools(): %v", got)
	}
}

func TestInstructionsKeptPerServer(t *testing.T) {
	s := pool.Build([]pool.ServerTools{
		{Server: "a", Instructions: "Use a wisely."},
		{Server: "b"},
	}, nil)
	if text, ok := s.Instructions("a"); !ok || text != "Use a wisely." {
		t.Errorf("a: %q %v", text, ok)
	}
	if _, ok := s.Instructions("b"); ok {
		t.Error("b sent no instructions")
	}
	if diff := cmp.Diff([]string{"a", "b"}, s.Servers()); diff != "" {
		t.Error(diff)
	}
}

// fixtureServers turns every recorded pool into a server named after its
// file (variants share server names).
func fixtureServers(t testing.TB, only ...string) []pool.ServerTools {
	t.Helper()
	all, err := fixtures.All()
	if err != nil {
		t.Fatal(err)
	}
	var out []pool.ServerTools
	for _, p := range all {
		if len(only) > 0 && !slices.Contains(only, p.File) {
			continue
		}
		st := pool.ServerTools{Server: p.File}
		if p.Instructions != nil {
			st.Instructions = *p.Instructions
		}
		for _, ft := range p.Tools {
			st.Tools = append(st.Tools, pool.Tool{Leaf: ft.Name, Description: ft.Description, InputSchema: ft.InputSchema, OutputSchema: ft.OutputSchema})
		}
		out = append(out, st)
	}
	return out
}

func TestNFR2_AllFixturePoolsTogether(t *testing.T) {
	servers := fixtureServers(t)
	s := pool.Build(servers, nil)
	if s.Len() != 3670 || len(s.Conflicts()) != 0 {
		t.Fatalf("Len = %d, conflicts %v; want 3670 tools", s.Len(), s.Conflicts())
	}
	tools := s.Tools()
	if !slices.IsSortedFunc(tools, func(a, b pool.Tool) int { return strings.Compare(a.Name, b.Name) }) {
		t.Fatal("not sorted")
	}
	for _, srv := range servers {
		for _, want := range srv.Tools {
			got, ok := s.Lookup(pool.FullName(srv.Server, want.Leaf))
			if !ok || got.Server != srv.Server || got.Leaf != want.Leaf ||
				string(got.InputSchema) != string(want.InputSchema) || string(got.OutputSchema) != string(want.OutputSchema) {
				t.Fatalf("%s/%s not found intact", srv.Server, want.Leaf)
			}
		}
	}
	// CONV-6 on the full pool: an exclusion removes exactly its tools.
	deny := func(n string) bool { return pool.GroupKey(n) == "lark-all" }
	if got := pool.Build(servers, deny).Len(); got != 3670-1274 {
		t.Fatalf("after excluding lark-all: %d tools", got)
	}
}

func BenchmarkSnapshotBuildLarkAll(b *testing.B) {
	servers := fixtureServers(b, "lark-all")
	b.ReportAllocs()
	for b.Loop() {
		pool.Build(servers, nil)
	}
}

func BenchmarkSnapshotBuildAllFixtures(b *testing.B) {
	servers := fixtureServers(b)
	b.ReportAllocs()
	for b.Loop() {
		pool.Build(servers, nil)
	}
}

func BenchmarkSnapshotLookup(b *testing.B) {
	s := pool.Build(fixtureServers(b), nil)
	tools := s.Tools()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Lookup(tools[i%len(tools)].Name)
		i++
	}
}
