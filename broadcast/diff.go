package broadcast

import (
	"slices"
	"strings"
)

// namespaceDiff is the change from one namespace -> tool count map to
// another, at namespace level only.
type namespaceDiff struct {
	added   []string // namespaces only in the new map
	changed []string // namespaces in both, with different counts
	removed []string // namespaces only in the old map
}

func diffNamespaces(old, cur map[string]int) namespaceDiff {
	var d namespaceDiff
	for ns, n := range cur {
		was, ok := old[ns]
		switch {
		case !ok:
			d.added = append(d.added, ns)
		case was != n:
			d.changed = append(d.changed, ns)
		}
	}
	for ns := range old {
		if _, ok := cur[ns]; !ok {
			d.removed = append(d.removed, ns)
		}
	}
	// Sorted, so the same change always reads the same bytes.
	slices.Sort(d.added)
	slices.Sort(d.changed)
	slices.Sort(d.removed)
	return d
}

func (d namespaceDiff) empty() bool {
	return len(d.added) == 0 && len(d.changed) == 0 && len(d.removed) == 0
}

// text renders the update message for the diff from old to cur.
func (d namespaceDiff) text(old, cur map[string]int) string {
	var b strings.Builder
	b.WriteString(diffLead)
	if len(d.added) > 0 {
		b.WriteString(diffAddedHeader)
		for _, ns := range d.added {
			b.WriteString(diffAddedLine(ns, cur[ns]))
		}
	}
	if len(d.changed) > 0 {
		b.WriteString(diffChangedHeader)
		for _, ns := range d.changed {
			b.WriteString(diffChangedLine(ns, old[ns], cur[ns]))
		}
	}
	if len(d.removed) > 0 {
		b.WriteString(diffRemovedHeader)
		for _, ns := range d.removed {
			b.WriteString(diffRemovedLine(ns))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
