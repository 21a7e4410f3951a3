package toolpool

import (
	"slices"
	"strings"
)

// Exclude reports whether a tool, by full name, is removed from the pool
// (permission deny rules, disallowedTools). A nil Exclude removes nothing.
type Exclude func(fullName string) bool

// ServerTools is what one connected server contributes to the pool.
type ServerTools struct {
	// Server is the configured server name.
	Server string
	// Instructions is the instructions text of the server's initialize
	// result ("" when it sent none).
	Instructions string
	// Implementation is the name and version the server reported at
	// initialize ("name version"; "" when it reported none).
	Implementation string
	// Tools holds the server's tools in listing order; only Leaf,
	// Description and the schemas are read.
	Tools []Tool
}

// Snapshot is an immutable view of the pool: the tools callable at one
// moment, sorted by full name. It is shared, never copied: every method is
// safe for concurrent use and no method hands out memory the snapshot keeps.
type Snapshot struct {
	tools           []Tool
	index           map[string]int
	servers         []string
	instructions    map[string]string
	implementations map[string]string
	conflicts       []string
	down            []ServerDown // configured servers not connected, by name
	version         uint64
}

// ServerDown is a configured server whose tools are not in the pool, and
// why, in words a model can be shown ("it is still starting", the
// connection error...).
type ServerDown struct {
	Server string
	Why    string
	// Expected: the server is starting or reconnecting, not disabled,
	// misconfigured or waiting for a person's authorization.
	Expected bool
}

// Build is the pool constructor: every tool of the given servers, named
// mcp__<server>__<leaf>, minus the ones exclude removes. Declarations, the
// catalog, search and the sandbox's reachable set must all come from its
// result.
//
// Two different servers can produce the same full name (server "a__b" with
// tool "c" and server "a" with tool "b__c"). Such a name could route to
// either, so both are left out of the pool and reported by Conflicts. A server
// listing one tool name twice keeps its first entry.
func Build(servers []ServerTools, exclude Exclude) *Snapshot {
	return BuildVersion(servers, exclude, 0)
}

// BuildVersion is Build for a publisher that numbers its snapshots: the
// result reports version from Version.
func BuildVersion(servers []ServerTools, exclude Exclude, version uint64) *Snapshot {
	total := 0
	for _, s := range servers {
		total += len(s.Tools)
	}
	all := make([]Tool, 0, total)
	s := &Snapshot{instructions: make(map[string]string, len(servers)), implementations: make(map[string]string, len(servers)), version: version}
	for _, srv := range servers {
		s.servers = append(s.servers, srv.Server)
		if srv.Instructions != "" {
			s.instructions[srv.Server] = srv.Instructions
		}
		if srv.Implementation != "" {
			s.implementations[srv.Server] = srv.Implementation
		}
		for _, t := range srv.Tools {
			t.Name, t.Server = FullName(srv.Server, t.Leaf), srv.Server
			all = append(all, t)
		}
	}
	// Sort a permutation rather than the wide Tool structs; stable, so a
	// server's first entry of a repeated name comes first.
	order := make([]int32, len(all))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(all[a].Name, all[b].Name) })
	s.tools = make([]Tool, 0, len(all))
	s.index = make(map[string]int, len(all))
	for i := 0; i < len(order); {
		first := all[order[i]]
		j, conflict := i+1, false
		for ; j < len(order) && all[order[j]].Name == first.Name; j++ {
			conflict = conflict || all[order[j]].Server != first.Server
		}
		i = j
		if conflict {
			s.conflicts = append(s.conflicts, first.Name)
			continue
		}
		if exclude != nil && exclude(first.Name) {
			continue
		}
		s.index[first.Name] = len(s.tools)
		s.tools = append(s.tools, first)
	}
	slices.Sort(s.servers)
	return s
}

// Tools returns the pool sorted by full name. The slice is a fresh copy; the
// schemas inside are shared and must not be modified.
func (s *Snapshot) Tools() []Tool { return slices.Clone(s.tools) }

// Each calls f for every tool in name order without copying the list; it
// stops early when f returns false.
func (s *Snapshot) Each(f func(Tool) bool) {
	for _, t := range s.tools {
		if !f(t) {
			return
		}
	}
}

// Lookup finds a tool by full name. Routing uses it; it never splits names.
func (s *Snapshot) Lookup(name string) (Tool, bool) {
	i, ok := s.index[name]
	if !ok {
		return Tool{}, false
	}
	return s.tools[i], true
}

// Len is the number of tools in the pool.
func (s *Snapshot) Len() int { return len(s.tools) }

// Servers lists the connected servers the snapshot was built from, sorted,
// including servers that contribute no tool.
func (s *Snapshot) Servers() []string { return slices.Clone(s.servers) }

// Instructions returns the instructions a connected server sent at
// initialize, for the host's separate instructions channel. ok is false when
// the server sent none or is not connected.
func (s *Snapshot) Instructions(server string) (text string, ok bool) {
	text, ok = s.instructions[server]
	return text, ok
}

// Implementation returns the name and version a connected server reported
// at initialize ("name version"), "" when it reported none or is not
// connected.
func (s *Snapshot) Implementation(server string) string {
	return s.implementations[server]
}

// Version increases with every snapshot a publisher (the pool's Manager)
// makes with BuildVersion (0 for one made by Build), so a holder can tell
// whether the pool moved on.
func (s *Snapshot) Version() uint64 { return s.version }

// Conflicts lists the full names two servers both produced; they are left
// out of the pool (see Build).
func (s *Snapshot) Conflicts() []string { return slices.Clone(s.conflicts) }

// Down lists the configured servers that are not connected, sorted by name,
// each with why (see ServerStatus.Why). A snapshot made by Build has none.
func (s *Snapshot) Down() []ServerDown {
	if s == nil {
		return nil
	}
	return slices.Clone(s.down)
}

// Unavailable explains a name that is not in the pool because its server is
// configured but not connected: it returns that server and why. ok is false
// when the name is in the pool, or could belong to a connected server (then
// it is simply not one of its tools), or to no configured server at all.
//
// With servers "a" and "a__b", the name mcp__a__b__x could belong to either;
// it counts as down only when every server it could belong to is down, and
// then names the longest such server.
func (s *Snapshot) Unavailable(name string) (down ServerDown, ok bool) {
	if _, listed := s.index[name]; listed {
		return ServerDown{}, false
	}
	for _, server := range s.servers {
		if strings.HasPrefix(name, FullName(server, "")) {
			return ServerDown{}, false
		}
	}
	for _, d := range s.down {
		if strings.HasPrefix(name, FullName(d.Server, "")) && len(d.Server) > len(down.Server) {
			down, ok = d, true
		}
	}
	return down, ok
}

// WithDown returns a copy of s that also records the configured servers
// that are not connected (see Down and Unavailable).
func (s *Snapshot) WithDown(down []ServerDown) *Snapshot {
	out := *s
	out.down = slices.Clone(down)
	return &out
}

// Expecting reports whether a configured server that is not connected is
// starting or reconnecting: its tools are expected back.
func (s *Snapshot) Expecting() bool {
	if s == nil {
		return false
	}
	for _, d := range s.down {
		if d.Expected {
			return true
		}
	}
	return false
}
