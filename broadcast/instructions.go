package broadcast

import (
	"cmp"
	"slices"
	"strings"
)

// ServerInstructions is the instructions field of one available MCP
// server's initialize result.
type ServerInstructions struct {
	Server       string
	Instructions string
}

// Instructions decides what the server-instructions channel appends for one
// request: one meta message per available server whose instructions the
// history does not hold yet (the server just became available, its
// instructions changed, or the earlier message was compacted or rewound
// away), in server name order. The instructions are sent verbatim, never
// trimmed, and take no part in the catalog budget.
//
// Like Catalog it reads only its own markers, keeps nothing between calls,
// and is silent when there is no channel or it cannot be read (the read
// error is returned for logging). A server that goes away is not announced
// here; the catalog channel covers the pool.
func Instructions(ch Channel, available []ServerInstructions) ([]Message, error) {
	history, ok, err := read(ch)
	if !ok {
		return nil, err
	}
	return DecideInstructions(history, available), nil
}

// DecideInstructions is Instructions over a history already read.
func DecideInstructions(history []Message, available []ServerInstructions) []Message {
	// Each message replaces a server's earlier instructions, so only the
	// latest one per server is what the model holds: instructions that
	// changed and changed back are sent again.
	var latest map[string]string
	var out []Message
	for _, s := range sortedServers(available) {
		if strings.TrimSpace(s.Instructions) == "" {
			continue // nothing to say: silence, not an empty message
		}
		if latest == nil {
			latest = make(map[string]string)
			for _, m := range history {
				if m.Meta && m.Instructions != nil {
					latest[m.Instructions.Server] = m.Instructions.Hash
				}
			}
		}
		header := instructionsHeader(s.Server)
		hash := hashParts(header, s.Instructions)
		if latest[s.Server] == hash {
			continue
		}
		latest[s.Server] = hash // the same server listed twice is sent once
		out = append(out, Message{
			Meta:         true,
			Text:         header + s.Instructions,
			Instructions: &InstructionsMarker{Server: s.Server, Hash: hash},
		})
	}
	return out
}

// sortedServers orders servers by name, so a request's messages never depend
// on the order the pool happened to list them in.
func sortedServers(in []ServerInstructions) []ServerInstructions {
	out := slices.Clone(in)
	slices.SortStableFunc(out, func(a, b ServerInstructions) int { return cmp.Compare(a.Server, b.Server) })
	return out
}
