package broadcast

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
)

// Kind says what a catalog message told the model.
type Kind string

const (
	// KindFull is a complete catalog: the model's view is exactly its text.
	KindFull Kind = "full"
	// KindDiff is a namespace-level update relative to the full catalog
	// whose hash is the marker's Base.
	KindDiff Kind = "diff"
	// KindEmpty is the notice that no MCP tools are available now.
	KindEmpty Kind = "empty"
	// KindWithdrawn is the notice that the catalog no longer applies.
	KindWithdrawn Kind = "withdrawn"
)

// CatalogMarker records, with one catalog message, the broadcast state the
// model holds once it has read that message. It stores namespace counts
// only, never per-tool paths: a finer diff would need a larger marker, not
// a re-parse of catalog text.
type CatalogMarker struct {
	Kind Kind `json:"kind"`
	// Hash identifies the catalog the model's view now equals: the hash of
	// the full catalog message text for that pool (see hashText). Set for
	// full and diff messages.
	Hash string `json:"hash,omitempty"`
	// Base is, for a diff, the Hash of the full catalog it is relative to.
	Base string `json:"base,omitempty"`
	// Truncated reports whether that catalog leaves entries out.
	Truncated bool `json:"truncated,omitempty"`
	// Namespaces maps each namespace to its tool count in that catalog.
	Namespaces map[string]int `json:"namespaces,omitempty"`
	// Wording identifies the catalog's fixed wording and layout (see
	// wordingFingerprint) when the message was made. A diff is only ever
	// laid over a full catalog of the same wording.
	Wording string `json:"wording,omitempty"`
}

// InstructionsMarker records, with one server-instructions message, which
// server's instructions it carries and the hash of the message text.
type InstructionsMarker struct {
	Server string `json:"server"`
	Hash   string `json:"hash"`
}

// hashText is the marker hash of a model-visible text: the full SHA-256,
// hex encoded. It is taken over the exact message text, so equal hashes mean
// the model read equal bytes and any change of wording or layout (of the
// rendered catalog or of this package's framing) is one re-broadcast. The
// digest is not shortened: the marker never enters the model's context, so
// the 64 characters cost nothing there, and a full digest leaves no room for
// a collision (even a crafted one) to hide a change.
func hashText(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// hashParts is hashText of the concatenated parts, without building the
// text or copying a long part whole (the hash takes bytes, not strings).
func hashParts(parts ...string) string {
	h := sha256.New()
	var buf [4096]byte
	for _, p := range parts {
		for len(p) > 0 {
			n := copy(buf[:], p)
			h.Write(buf[:n])
			p = p[n:]
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// clone returns a deep copy, so a marker handed to the daemon never shares
// a map with the snapshot or the history.
func (m *CatalogMarker) clone() *CatalogMarker {
	c := *m
	c.Namespaces = cloneCounts(m.Namespaces)
	return &c
}

func cloneCounts(m map[string]int) map[string]int {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}
