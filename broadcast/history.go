package broadcast

import (
	"encoding/json"
	"slices"
	"sync"
)

// History is an in-memory conversation history implementing Channel, for
// tests, the demo and daemons that need nothing more. It is append-only
// through Append and safe for concurrent use; its JSON form is the list of
// messages with their markers.
type History struct {
	mu   sync.Mutex
	msgs []Message
}

// NewHistory returns a history holding msgs.
func NewHistory(msgs ...Message) *History {
	h := &History{}
	h.Append(msgs...)
	return h
}

// Messages returns the messages, oldest first. The caller must treat the
// slice as read-only. A nil *History is "no channel".
func (h *History) Messages() ([]Message, error) {
	if h == nil {
		return nil, ErrNoChannel
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	// Full slice expression: a later Append never writes into what a reader
	// holds.
	return h.msgs[:len(h.msgs):len(h.msgs)], nil
}

// Append adds msgs at the tail. Markers are copied, so later changes to the
// caller's values cannot reach the stored history.
func (h *History) Append(msgs ...Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range msgs {
		h.msgs = append(h.msgs, copyMessage(m))
	}
}

// Rewind keeps the first n messages and drops the rest, as a daemon does
// when the conversation is rewound.
func (h *History) Rewind(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n = max(0, min(n, len(h.msgs)))
	// A fresh array: readers may still hold the old one.
	h.msgs = slices.Clone(h.msgs[:n])
}

// Compact keeps only the messages for which keep returns true, as a daemon
// does when it compacts the conversation.
func (h *History) Compact(keep func(Message) bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var kept []Message
	for _, m := range h.msgs {
		if keep(m) {
			kept = append(kept, m)
		}
	}
	h.msgs = kept
}

// Len returns the number of messages.
func (h *History) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.msgs)
}

// MarshalJSON encodes the history as a JSON array of messages.
func (h *History) MarshalJSON() ([]byte, error) {
	msgs, _ := h.Messages()
	if msgs == nil {
		msgs = []Message{}
	}
	return json.Marshal(msgs)
}

// UnmarshalJSON replaces the history with the messages encoded in b.
func (h *History) UnmarshalJSON(b []byte) error {
	var msgs []Message
	if err := json.Unmarshal(b, &msgs); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = msgs
	return nil
}

func copyMessage(m Message) Message {
	if m.Catalog != nil {
		m.Catalog = m.Catalog.clone()
	}
	if m.Instructions != nil {
		c := *m.Instructions
		m.Instructions = &c
	}
	return m
}
