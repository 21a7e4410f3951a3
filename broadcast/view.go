package broadcast

// view is what the model holds of the catalog channel, derived from the
// markers in the history alone.
type view struct {
	state viewState
	// current is the marker of the state the model holds: the latest full
	// catalog, or the latest diff relative to it. Set for viewCatalog.
	current *CatalogMarker
	// base is the full catalog the current state rests on. Set for
	// viewCatalog.
	base *CatalogMarker
}

type viewState int

const (
	// viewNone: no catalog message is in the history (never sent, or every
	// one was compacted or rewound away). The model knows no catalog.
	viewNone viewState = iota
	// viewCatalog: the model holds a full catalog, perhaps updated by a diff.
	viewCatalog
	// viewBroken: the model holds catalog text whose meaning cannot be
	// established (a diff whose base is gone, or a marker of an unknown
	// kind). Only a full catalog or a notice repairs it.
	viewBroken
	// viewEmpty: the last word was the "no MCP tools available" notice.
	viewEmpty
	// viewWithdrawn: the last word was the "catalog no longer applies" notice.
	viewWithdrawn
)

// hadCatalog reports whether the model may still act on catalog entries it
// read, so a change must be announced to it.
func (v view) hadCatalog() bool { return v.state == viewCatalog || v.state == viewBroken }

// readView derives the model's view from the catalog markers of the meta
// messages in history. It scans backwards from the tail and stops at the
// latest full catalog or notice, so its cost is the length of the tail after
// that message, not of the whole history.
//
// A diff counts only while every diff after the latest full catalog names
// that catalog as its base: that is exactly when "the latest full catalog
// plus the latest update to it" is what the model reads. Diffs are
// cumulative (each is relative to the full catalog, not to the previous
// diff), so losing an older diff to compaction loses nothing.
func readView(history []Message) view {
	var latestDiff *CatalogMarker
	consistent := true // every diff seen so far has the same base
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		if !m.Meta || m.Catalog == nil {
			continue
		}
		mk := m.Catalog
		switch mk.Kind {
		case KindDiff:
			if latestDiff == nil {
				latestDiff = mk
			} else if mk.Base != latestDiff.Base {
				consistent = false
			}
		case KindFull:
			switch {
			case latestDiff == nil:
				return view{state: viewCatalog, current: mk, base: mk}
			case consistent && latestDiff.Base == mk.Hash:
				return view{state: viewCatalog, current: latestDiff, base: mk}
			default:
				return view{state: viewBroken}
			}
		case KindEmpty, KindWithdrawn:
			if latestDiff != nil {
				// A diff after a notice has no base the model can see.
				return view{state: viewBroken}
			}
			if mk.Kind == KindEmpty {
				return view{state: viewEmpty}
			}
			return view{state: viewWithdrawn}
		default:
			// Written by a newer version, or damaged: the model read
			// something this version cannot interpret.
			return view{state: viewBroken}
		}
	}
	if latestDiff != nil {
		return view{state: viewBroken}
	}
	return view{state: viewNone}
}
