package broadcast

import (
	"maps"
	"sync"

	"github.com/mcpexec/mcpexec/catalog"
)

// Snapshot is the catalog of one pool snapshot, rendered at most once and
// only when a decision needs it. Create one per pool snapshot and reuse it
// for every request assembled from that snapshot: a request whose history
// already holds the matching marker then costs no rendering at all after the
// first, and decisions that never look at the catalog (Exec not declared, an
// empty pool, no channel) never render it. It is safe for concurrent use.
//
// A Snapshot caches the rendering of a pool, not what was broadcast: the
// broadcast state is read from the history on every call.
type Snapshot struct {
	empty  bool
	render func() catalog.Catalog

	once sync.Once
	full rendered
}

// rendered is a catalog together with the full catalog message built from it.
type rendered struct {
	cat  catalog.Catalog
	text string // the full catalog message text
	hash string // hashText(text)
}

// NewSnapshot returns the lazily rendered catalog of tools. render is called
// at most once, with tools, and only if a decision needs the catalog; a
// catalog.Renderer's Render method fits.
func NewSnapshot(tools []catalog.Tool, render func([]catalog.Tool) catalog.Catalog) *Snapshot {
	return &Snapshot{
		empty:  len(tools) == 0,
		render: func() catalog.Catalog { return render(tools) },
	}
}

// RenderedSnapshot wraps a catalog that is already rendered.
func RenderedSnapshot(c catalog.Catalog) *Snapshot {
	return &Snapshot{
		empty:  c.Total == 0 && len(c.Namespaces) == 0,
		render: func() catalog.Catalog { return c },
	}
}

// Empty reports whether the pool has no tools. It never renders. A nil
// Snapshot is an empty pool (a session without MCP servers).
func (s *Snapshot) Empty() bool { return s == nil || s.empty }

// Catalog returns the rendered catalog, rendering it on first use. The
// Namespaces map is a copy the caller may keep. It must not be called on a
// nil Snapshot.
func (s *Snapshot) Catalog() catalog.Catalog {
	c := s.rendered().cat
	c.Namespaces = maps.Clone(c.Namespaces)
	return c
}

func (s *Snapshot) rendered() *rendered {
	s.once.Do(func() {
		c := s.render()
		s.render = nil // let the tools go
		text := fullText(c.Body)
		s.full = rendered{cat: c, text: text, hash: hashText(text)}
	})
	return &s.full
}
