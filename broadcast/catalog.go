package broadcast

// Catalog decides what the catalog channel appends to the history for one
// request: nothing, or one meta message the daemon appends at the tail of
// the history before sending the request, so the model reads it in this very
// request. pool is the current pool snapshot; execDeclared says whether Exec
// is in this request's tools[] (false for an empty pool, with the switch off,
// or when Exec is excluded or denied).
//
// The decision is a pure function of the history read from ch, the pool and
// execDeclared; nothing is kept between calls. It is silent when there is no
// channel (nil, or ErrNoChannel) and when the channel cannot be read; the
// read error is returned so the daemon can log it, never acted on.
func Catalog(ch Channel, pool *Snapshot, execDeclared bool) (Message, bool, error) {
	history, ok, err := read(ch)
	if !ok {
		return Message{}, false, err
	}
	msg, ok := DecideCatalog(history, pool, execDeclared)
	return msg, ok, nil
}

// DecideCatalog is Catalog over a history already read. It never modifies
// history, and the message it returns shares no memory with it.
func DecideCatalog(history []Message, pool *Snapshot, execDeclared bool) (Message, bool) {
	v := readView(history)
	switch {
	case pool.Empty():
		// Exec cannot be declared for an empty pool. A model that may act on
		// catalog entries learns once that there are none; a session that
		// never read a catalog, or was already told, hears nothing.
		if v.hadCatalog() {
			return notice(KindEmpty, emptyNotice), true
		}
		return Message{}, false
	case !execDeclared:
		// The tools are declared directly, or not at all: the catalog the
		// model read must not be used any more. Said once.
		if v.hadCatalog() {
			return notice(KindWithdrawn, withdrawnNotice), true
		}
		return Message{}, false
	}

	cur := pool.rendered()
	if v.state == viewCatalog && v.current.Hash == cur.hash {
		return Message{}, false
	}
	if v.state == viewCatalog {
		if msg, ok := diffMessage(v.base, cur); ok {
			return msg, true
		}
	}
	return Message{
		Meta: true,
		Text: cur.text,
		Catalog: &CatalogMarker{
			Kind:       KindFull,
			Hash:       cur.hash,
			Truncated:  cur.cat.Truncated,
			Namespaces: cloneCounts(cur.cat.Namespaces),
			Wording:    wordingFingerprint(),
		},
	}, true
}

// diffMessage returns the namespace-level update from the full catalog base
// to cur, when one is allowed and worth sending. Both catalogs must be
// truncated: a flip of truncation adds or removes the search section, and a
// complete catalog must list every signature, neither of which a namespace
// diff can say. The diff must name some change (a change of wording or of
// tools within unchanged counts has none to name) and be shorter than the
// full catalog: the point is brevity.
//
// A diff's marker records the current catalog's hash: the update makes the
// view equal to it at namespace level, which is all a diff can promise. It
// is never laid over a full catalog of another wording (a base from an older
// release): the model then gets the new full catalog (EDGE-14).
func diffMessage(base *CatalogMarker, cur *rendered) (Message, bool) {
	if !base.Truncated || !cur.cat.Truncated || base.Wording != wordingFingerprint() {
		return Message{}, false
	}
	d := diffNamespaces(base.Namespaces, cur.cat.Namespaces)
	if d.empty() {
		return Message{}, false
	}
	text := d.text(base.Namespaces, cur.cat.Namespaces)
	if len(text) >= len(cur.text) {
		return Message{}, false
	}
	return Message{
		Meta: true,
		Text: text,
		Catalog: &CatalogMarker{
			Kind:       KindDiff,
			Hash:       cur.hash,
			Base:       base.Hash,
			Truncated:  true,
			Namespaces: cloneCounts(cur.cat.Namespaces),
			Wording:    wordingFingerprint(),
		},
	}, true
}

func notice(kind Kind, text string) Message {
	return Message{Meta: true, Text: text, Catalog: &CatalogMarker{Kind: kind}}
}
