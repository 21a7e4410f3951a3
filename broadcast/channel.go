package broadcast

import "errors"

// Message is one history entry as the broadcast channels read and write it.
// A daemon maps its own messages onto this shape; the JSON form is the one
// the daemon stores, so markers survive a serialisation round trip.
type Message struct {
	// Meta reports that the message was appended by the system, not written
	// by the user or the model. Markers are read from meta messages only.
	Meta bool `json:"meta"`
	// Text is exactly what the model reads.
	Text string `json:"text"`
	// Catalog is the catalog channel's marker, nil on every other message.
	Catalog *CatalogMarker `json:"catalogMarker,omitempty"`
	// Instructions is the server-instructions channel's marker, nil on every
	// other message.
	Instructions *InstructionsMarker `json:"instructionsMarker,omitempty"`
}

// Channel is the daemon's conversation history, as far as broadcasting is
// concerned.
type Channel interface {
	// Messages returns the history, oldest first. The slice and the markers
	// it holds are only read, never modified. It returns ErrNoChannel when
	// the host keeps no history the broadcaster may read, and any other error
	// when reading failed; both make the broadcast silent.
	Messages() ([]Message, error)
}

// ErrNoChannel is what a Channel returns when the host (or a test double)
// provides no broadcast channel.
var ErrNoChannel = errors.New("broadcast: the host provides no channel")

// read returns the history, or ok=false when nothing may be broadcast:
// there is no channel, or it cannot be read. Cannot-read is never taken for
// an empty history, which would mean "the model has seen nothing".
func read(ch Channel) (history []Message, ok bool, err error) {
	if ch == nil {
		return nil, false, nil
	}
	history, err = ch.Messages()
	if errors.Is(err, ErrNoChannel) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return history, true, nil
}
