package mcpexec

import (
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/shapes"
	"github.com/mcpexec/mcpexec/toolpool"
)

// openShapes opens the store of observed result shapes the options ask
// for: none when learning is off, else persisted in Options.ShapesDir or
// shapes.DefaultDir. A store that cannot be read is a warning, never an
// error: the notes are rebuilt from the calls that follow.
func (s *System) openShapes(opts Options) {
	if opts.NoShapeLearning {
		return
	}
	dir := opts.ShapesDir
	if dir == "" {
		var err error
		if dir, err = shapes.DefaultDir(); err != nil {
			s.logger.Warn().Err(err).Msg("mcpexec: observed result shapes are kept for this session only")
			s.shapes = shapes.NewStore()
			return
		}
	}
	s.shapes = shapes.Open(dir, func(err error) { s.logger.Warn().Err(err).Msg("mcpexec: observed result shapes") })
}

// shapeKey is the store's key of a tool of snap: the note is kept while
// the server's reported name and version and the tool's input schema stay.
func shapeKey(snap *toolpool.Snapshot, t toolpool.Tool) shapes.Key {
	return shapes.Key{Server: t.Server, Tool: t.Name, Implementation: snap.Implementation(t.Server), InputSchema: t.InputSchema}
}

// observedNote is what t was observed to return, for the catalog.
func (s *System) observedNote(snap *toolpool.Snapshot, t toolpool.Tool) string {
	if len(t.OutputSchema) > 0 {
		return ""
	}
	return s.shapes.Note(shapeKey(snap, t))
}

// observe learns from the result of a successful nested call of name, a
// tool of snap that declares no output schema, and tells the broadcaster
// when its note grew, so the catalog carries it from the next request.
func (s *System) observe(snap *toolpool.Snapshot, name string, res pool.Result) {
	if s.shapes == nil || snap == nil {
		return
	}
	t, ok := snap.Lookup(name)
	if !ok || len(t.OutputSchema) > 0 {
		return
	}
	var o shapes.Note
	switch v := res.Value.(type) {
	case nil:
		return
	case string:
		o = shapes.Text(v)
	default:
		o = shapes.Structured(res.JSON)
	}
	if s.shapes.Observe(shapeKey(snap, t), o) {
		s.broadcaster.ObservedChanged()
	}
}
