package broadcast

import (
	"errors"
	"strings"
	"testing"
)

// Proves BCAST-2.
func TestBCAST2_FirstCatalogLandsInTheSameRequest(t *testing.T) {
	r := &fakeRenderer{limit: complete}
	pool := snapOf(r, map[string]int{"github": 2, "memory": 1})
	h := NewHistory(chat("hello"))

	msg, ok := decide(t, h, pool, true)
	mustKind(t, msg, ok, KindFull)
	want := fullText(pool.Catalog().Body)
	if msg.Text != want {
		t.Fatalf("full catalog text = %q, want lead + body %q", msg.Text, want)
	}
	// The daemon appended it before sending: this request's history already
	// ends with the catalog.
	msgs, _ := h.Messages()
	if last := msgs[len(msgs)-1]; last.Text != want || !last.Meta {
		t.Fatalf("history tail = %+v, want the catalog message", last)
	}
	if got := msg.Catalog; got.Hash != hashText(want) || got.Truncated || got.Namespaces["github"] != 2 || got.Namespaces["memory"] != 1 {
		t.Fatalf("marker = %+v, want hash of the text and the namespace counts", got)
	}
}

// Proves BCAST-3.
func TestBCAST3_NeverHadCatalogEmptyPoolIsSilent(t *testing.T) {
	r := &fakeRenderer{limit: complete}
	h := NewHistory(chat("hi"), chat("how are you"))
	for range 3 { // the whole turn, every request
		for _, declared := range []bool{false, true} {
			msg, ok := decide(t, h, snapOf(r, nil), declared)
			mustSilent(t, msg, ok)
		}
	}
	if r.calls.Load() != 0 {
		t.Fatalf("an empty pool was rendered %d times, want never", r.calls.Load())
	}
	// A catalog that was compacted away leaves a session that never had one.
	h = NewHistory(chat("hi"))
	decide(t, h, snapOf(r, map[string]int{"a": 1}), true)
	h.Compact(func(m Message) bool { return !m.Meta })
	msg, ok := decide(t, h, snapOf(r, nil), false)
	mustSilent(t, msg, ok)
}

// Proves BCAST-4.
func TestBCAST4_AppendOnlyHistoryByteIdentical(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	h := NewHistory(chat("start"))
	steps := []struct {
		counts   map[string]int
		declared bool
	}{
		{nil, false},
		{map[string]int{"a": 5}, true},
		{map[string]int{"a": 5, "b": 4}, true},
		{map[string]int{"a": 6, "b": 4}, true},
		{map[string]int{"x": 1}, true},
		{map[string]int{"x": 1}, false},
		{nil, false},
		{map[string]int{"a": 5}, true},
	}
	for i, s := range steps {
		before := snapshotJSON(t, h)
		beforeLen := h.Len()
		msgs, _ := h.Messages()
		_, ok := DecideCatalog(msgs, snapOf(r, s.counts), s.declared)
		if got := snapshotJSON(t, h); got != before {
			t.Fatalf("step %d: deciding changed the history", i)
		}
		msg, ok2 := decide(t, h, snapOf(r, s.counts), s.declared)
		if ok != ok2 {
			t.Fatalf("step %d: same inputs, different decisions", i)
		}
		after := snapshotJSON(t, h)
		if !strings.HasPrefix(after, strings.TrimSuffix(before, "]")) {
			t.Fatalf("step %d: earlier messages changed:\nbefore %s\nafter  %s", i, before, after)
		}
		if want := beforeLen + btoi(ok); h.Len() != want {
			t.Fatalf("step %d: history has %d messages, want %d", i, h.Len(), want)
		}
		// The returned marker shares no map with the history: changing
		// it cannot rewrite what was stored.
		if ok && msg.Catalog.Namespaces != nil {
			msg.Catalog.Namespaces["tampered"] = 1
			if snapshotJSON(t, h) != after {
				t.Fatalf("step %d: the returned marker aliases the stored one", i)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Proves BCAST-5.
func TestBCAST5_UnchangedStateIsNotRepeated(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	counts := map[string]int{"a": 4, "b": 2}
	h := NewHistory()
	msg, ok := decide(t, h, snapOf(r, counts), true)
	mustKind(t, msg, ok, KindFull)
	for i := range 5 {
		// A fresh snapshot of the same pool renders the same body: recomputing
		// is not a change.
		h.Append(chat("turn"))
		msg, ok := decide(t, h, snapOf(r, counts), true)
		if ok {
			t.Fatalf("request %d repeated the catalog: %q", i, msg.Text)
		}
	}
	// Also after a diff: the diff's resulting state is not repeated.
	counts["c"] = 3
	msg, ok = decide(t, h, snapOf(r, counts), true)
	mustKind(t, msg, ok, KindDiff)
	msg, ok = decide(t, h, snapOf(r, counts), true)
	mustSilent(t, msg, ok)
}

// Proves BCAST-6.
func TestBCAST6_CompactedOrRewoundCatalogIsBroadcastAgain(t *testing.T) {
	r := &fakeRenderer{limit: complete}
	counts := map[string]int{"a": 2}

	t.Run("compaction", func(t *testing.T) {
		h := NewHistory(chat("one"))
		decide(t, h, snapOf(r, counts), true)
		h.Append(chat("two"), chat("three"))
		h.Compact(func(m Message) bool { return !m.Meta }) // summary dropped the catalog
		msg, ok := decide(t, h, snapOf(r, counts), true)
		mustKind(t, msg, ok, KindFull)
	})
	t.Run("rewind", func(t *testing.T) {
		h := NewHistory(chat("one"))
		decide(t, h, snapOf(r, counts), true)
		h.Rewind(1)
		msg, ok := decide(t, h, snapOf(r, counts), true)
		mustKind(t, msg, ok, KindFull)
	})
	t.Run("rewind to before a newer catalog", func(t *testing.T) {
		h := NewHistory(chat("one"))
		decide(t, h, snapOf(r, counts), true)
		n := h.Len()
		decide(t, h, snapOf(r, map[string]int{"a": 2, "b": 1}), true)
		h.Rewind(n)
		// The model's view is the older catalog again; the current pool
		// differs from it, so it is told again.
		msg, ok := decide(t, h, snapOf(r, map[string]int{"a": 2, "b": 1}), true)
		mustKind(t, msg, ok, KindFull)
	})
}

// Proves BCAST-7.
func TestBCAST7_DiffOnlyWhileBaseInHistory(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	h := NewHistory()
	base, _ := decide(t, h, snapOf(r, map[string]int{"a": 4, "b": 3, "c": 2}), true)

	msg, ok := decide(t, h, snapOf(r, map[string]int{"a": 6, "b": 3, "d": 2}), true)
	mustKind(t, msg, ok, KindDiff)
	if msg.Catalog.Base != base.Catalog.Hash {
		t.Fatalf("diff base = %q, want the full catalog's hash %q", msg.Catalog.Base, base.Catalog.Hash)
	}
	for _, want := range []string{
		diffAddedHeader + diffAddedLine("d", 2),
		diffChangedHeader + diffChangedLine("a", 4, 6),
		diffRemovedHeader + diffRemovedLine("c"),
	} {
		if !strings.Contains(msg.Text+"\n", want) {
			t.Fatalf("diff %q lacks %q", msg.Text, want)
		}
	}
	if strings.Contains(msg.Text, diffChangedLine("b", 3, 3)) || strings.Contains(msg.Text, "mcp__b") {
		t.Fatalf("diff names the unchanged namespace b: %q", msg.Text)
	}
	if !strings.Contains(msg.Text, "search") {
		t.Fatalf("diff does not point to search for the new signatures: %q", msg.Text)
	}

	// Diffs are cumulative: the next one is still relative to the full
	// catalog, so it reports a's count against 4, not 6.
	msg, ok = decide(t, h, snapOf(r, map[string]int{"a": 7, "b": 3, "d": 2}), true)
	mustKind(t, msg, ok, KindDiff)
	if msg.Catalog.Base != base.Catalog.Hash || !strings.Contains(msg.Text, diffChangedLine("a", 4, 7)) {
		t.Fatalf("second diff = %q (base %q), want a change 4 -> 7 against the full catalog", msg.Text, msg.Catalog.Base)
	}

	// The base is compacted away, the diffs stay: a full catalog instead.
	h.Compact(func(m Message) bool { return m.Catalog == nil || m.Catalog.Kind != KindFull })
	msg, ok = decide(t, h, snapOf(r, map[string]int{"a": 8, "b": 3, "d": 2}), true)
	mustKind(t, msg, ok, KindFull)
	// Even with an unchanged pool a diff without its base is repaired.
	h2 := NewHistory()
	decide(t, h2, snapOf(r, map[string]int{"a": 4, "b": 3}), true)
	decide(t, h2, snapOf(r, map[string]int{"a": 5, "b": 3}), true)
	h2.Compact(func(m Message) bool { return m.Catalog.Kind != KindFull })
	msg, ok = decide(t, h2, snapOf(r, map[string]int{"a": 5, "b": 3}), true)
	mustKind(t, msg, ok, KindFull)
}

// Proves BCAST-8.
func TestBCAST8_FullCatalogWhenDiffNotShorter(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	// Many servers are replaced by a different, small set: naming every one
	// that went away would be longer than the new catalog itself.
	before := map[string]int{}
	for _, ns := range strings.Fields("c d e f g h i j k l m n o p q r s t u v w x y z") {
		before["server-with-a-long-name-"+ns] = 4
	}
	after := map[string]int{"a": 4, "b": 4}
	h := NewHistory()
	decide(t, h, snapOf(r, before), true)

	pool := snapOf(r, after)
	d := diffNamespaces(before, after)
	if diffLen, fullLen := len(d.text(before, after)), len(fullText(pool.Catalog().Body)); diffLen < fullLen {
		t.Fatalf("test setup: diff (%d bytes) is shorter than the full catalog (%d bytes)", diffLen, fullLen)
	}
	msg, ok := decide(t, h, pool, true)
	mustKind(t, msg, ok, KindFull)

	// The same kind of change on a small scale is a diff: brevity decides.
	msg, ok = decide(t, h, snapOf(r, map[string]int{"a": 4, "b": 4, "c": 4}), true)
	mustKind(t, msg, ok, KindDiff)
	if full := fullText(snapOf(r, map[string]int{"a": 4, "b": 4, "c": 4}).Catalog().Body); len(msg.Text) >= len(full) {
		t.Fatalf("diff of %d bytes sent instead of a full catalog of %d", len(msg.Text), len(full))
	}
}

// Proves BCAST-9.
func TestBCAST9_TruncationFlipSendsFullCatalog(t *testing.T) {
	r := &fakeRenderer{limit: 4}
	h := NewHistory()
	// Complete -> truncated.
	decide(t, h, snapOf(r, map[string]int{"a": 2, "b": 2}), true)
	msg, ok := decide(t, h, snapOf(r, map[string]int{"a": 2, "b": 2, "c": 1}), true)
	mustKind(t, msg, ok, KindFull)
	if !msg.Catalog.Truncated {
		t.Fatal("marker does not record the truncation")
	}
	// Truncated -> complete.
	msg, ok = decide(t, h, snapOf(r, map[string]int{"a": 2, "b": 1}), true)
	mustKind(t, msg, ok, KindFull)
	// Complete -> complete with other counts: every entry must be listed,
	// so also a full catalog.
	msg, ok = decide(t, h, snapOf(r, map[string]int{"a": 3, "b": 1}), true)
	mustKind(t, msg, ok, KindFull)
}

// Proves BCAST-10.
func TestBCAST10_EmptyPoolNoticeOnceWithoutExecName(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	for _, lastKind := range []string{"full", "diff", "broken diff"} {
		t.Run(lastKind, func(t *testing.T) {
			h := NewHistory()
			decide(t, h, snapOf(r, map[string]int{"a": 4, "b": 2}), true)
			if lastKind != "full" {
				decide(t, h, snapOf(r, map[string]int{"a": 5, "b": 2}), true)
			}
			if lastKind == "broken diff" {
				h.Compact(func(m Message) bool { return m.Catalog.Kind != KindFull })
			}
			msg, ok := decide(t, h, snapOf(r, nil), false)
			mustNoticeOnce(t, h, msg, ok, KindEmpty, emptyNotice, snapOf(r, nil))
			// Tools come back: a full catalog.
			msg, ok = decide(t, h, snapOf(r, map[string]int{"a": 4, "b": 2}), true)
			mustKind(t, msg, ok, KindFull)
		})
	}
}

// mustNoticeOnce checks that msg is the notice of kind with text, which
// never names Exec, and that the following requests with an unchanged pool
// (Exec still not declared) say nothing more.
func mustNoticeOnce(t *testing.T, h *History, msg Message, ok bool, kind Kind, text string, pool *Snapshot) {
	t.Helper()
	mustKind(t, msg, ok, kind)
	if msg.Text != text || strings.Contains(msg.Text, "Exec") {
		t.Fatalf("%s notice = %q", kind, msg.Text)
	}
	for range 3 {
		msg, ok := decide(t, h, pool, false)
		mustSilent(t, msg, ok)
	}
}

// Proves BCAST-11.
func TestBCAST11_WithdrawnNoticeAndFullCatalogOnReturn(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	counts := map[string]int{"a": 4, "b": 2}
	h := NewHistory()
	decide(t, h, snapOf(r, counts), true)

	msg, ok := decide(t, h, snapOf(r, counts), false) // switch off, excluded or denied
	mustNoticeOnce(t, h, msg, ok, KindWithdrawn, withdrawnNotice, snapOf(r, counts))
	// The pool empties while withdrawn: the model was already told not to
	// use the catalog; nothing more.
	msg, ok = decide(t, h, snapOf(r, nil), false)
	mustSilent(t, msg, ok)

	// Exec is declared again with the very same pool: a full catalog, not
	// silence because the content did not change.
	msg, ok = decide(t, h, snapOf(r, counts), true)
	mustKind(t, msg, ok, KindFull)

	// A session that never had a catalog and has Exec off hears nothing.
	h = NewHistory(chat("hi"))
	msg, ok = decide(t, h, snapOf(r, counts), false)
	mustSilent(t, msg, ok)
	// After the empty notice, tools that come back declared directly need
	// no notice either.
	h = NewHistory()
	decide(t, h, snapOf(r, counts), true)
	decide(t, h, snapOf(r, nil), false)
	msg, ok = decide(t, h, snapOf(r, counts), false)
	mustSilent(t, msg, ok)
}

// failingChannel cannot be read.
type failingChannel struct{ err error }

func (c failingChannel) Messages() ([]Message, error) { return nil, c.err }

// noChannel is a host that provides no channel.
type noChannel struct{}

func (noChannel) Messages() ([]Message, error) { return nil, ErrNoChannel }

// Proves BCAST-12.
func TestBCAST12_NoChannelIsSilence(t *testing.T) {
	r := &fakeRenderer{limit: partial}
	readErr := errors.New("store offline")
	var nilHistory *History
	channels := map[string]struct {
		ch      Channel
		wantErr error
	}{
		"nil channel":          {nil, nil},
		"nil history":          {nilHistory, nil},
		"host without channel": {noChannel{}, nil},
		"unreadable channel":   {failingChannel{readErr}, readErr},
	}
	for name, c := range channels {
		t.Run(name, func(t *testing.T) {
			for _, counts := range []map[string]int{nil, {"a": 4}} {
				for _, declared := range []bool{false, true} {
					msg, ok, err := Catalog(c.ch, snapOf(r, counts), declared)
					mustSilent(t, msg, ok)
					if !errors.Is(err, c.wantErr) || (c.wantErr == nil && err != nil) {
						t.Fatalf("err = %v, want %v", err, c.wantErr)
					}
				}
			}
		})
	}
	if r.calls.Load() != 0 {
		t.Fatalf("rendered %d times without a channel, want never", r.calls.Load())
	}
}
