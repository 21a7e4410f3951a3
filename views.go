package mcpexec

import (
	"slices"
	"strings"
	"sync"

	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/catalog"
	"github.com/mcpexec/mcpexec/declare"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// view is what one agent sees of one pool snapshot: its reachable tools as
// the sandbox's tool set, the catalog (rendered once, when first needed) and
// the search index. Everything derives from the same snapshot and the same
// agent filter, so declarations, catalog, search and the sandbox agree.
type view struct {
	snap    *pool.Snapshot
	tools   []catalog.Tool
	toolSet *sandbox.ToolSet
	catalog *broadcast.Snapshot

	indexOnce sync.Once
	index     *catalog.Index
}

// viewCache keeps the views of the latest snapshot, and its flat names; a
// new snapshot replaces them all.
type viewCache struct {
	mu    sync.Mutex
	snap  *pool.Snapshot
	views map[string]*view
	flat  *declare.FlatNames
}

// use makes snap the cached snapshot, dropping what belonged to another.
// The caller holds mu.
func (c *viewCache) use(snap *pool.Snapshot) {
	if c.snap != snap || c.views == nil {
		c.snap, c.views, c.flat = snap, map[string]*view{}, nil
	}
}

// flatNames maps snap's tools to their flat declaration names and back,
// computed once per snapshot.
func (s *System) flatNames(snap *pool.Snapshot) *declare.FlatNames {
	s.views.mu.Lock()
	defer s.views.mu.Unlock()
	s.views.use(snap)
	if s.views.flat == nil {
		s.views.flat = declare.FlatNamesOf(snap)
	}
	return s.views.flat
}

func (s *System) view(snap *pool.Snapshot, agent declare.Agent) *view {
	key := agentKey(agent)
	s.views.mu.Lock()
	defer s.views.mu.Unlock()
	s.views.use(snap)
	if v, ok := s.views.views[key]; ok {
		return v
	}
	v := &view{snap: snap}
	var names []string
	for _, t := range declare.Reachable(snap, agent) {
		v.tools = append(v.tools, catalog.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema})
		names = append(names, t.Name)
	}
	v.toolSet = sandbox.NewToolSet(names)
	if down := snap.Down(); len(down) > 0 {
		why := make(map[string]string, len(down))
		for _, d := range down {
			why[d.Server] = d.Why
		}
		v.toolSet = v.toolSet.WithDown(why)
	}
	v.catalog = broadcast.NewSnapshot(v.tools, s.renderer.Render)
	s.views.views[key] = v
	return v
}

func (v *view) searchIndex(r *catalog.Renderer) *catalog.Index {
	v.indexOnce.Do(func() { v.index = catalog.NewIndex(v.tools, catalog.WithRenderer(r)) })
	return v.index
}

func agentKey(a declare.Agent) string {
	allowed := "*"
	if a.Allowed != nil {
		list := slices.Clone(a.Allowed)
		slices.Sort(list)
		allowed = strings.Join(list, ",")
	}
	disallowed := slices.Clone(a.Disallowed)
	slices.Sort(disallowed)
	return allowed + "|" + strings.Join(disallowed, ",")
}
