package broadcast_test

import (
	"fmt"

	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/catalog"
)

// A daemon asks, before every model request, what to append; it appends the
// message (marker included) to its own history before sending the request.
func Example() {
	renderer := catalog.NewRenderer(catalog.Options{})
	history := broadcast.NewHistory(broadcast.Message{Text: "What is in my notes?"})

	request := func(tools []catalog.Tool, execDeclared bool) {
		// One Snapshot per pool snapshot: it renders at most once.
		pool := broadcast.NewSnapshot(tools, renderer.Render)
		msg, ok, err := broadcast.Catalog(history, pool, execDeclared)
		if err != nil {
			fmt.Println("history unreadable, nothing broadcast:", err)
			return
		}
		if !ok {
			fmt.Println("nothing to append")
			return
		}
		history.Append(msg)
		fmt.Println("appended:", msg.Catalog.Kind)
	}

	notes := []catalog.Tool{{
		Name:        "mcp__notes__search",
		Description: "Search the notes.",
		InputSchema: []byte(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`),
	}}
	request(nil, false)   // no MCP servers yet: a session without a catalog hears nothing
	request(notes, true)  // the notes server connects: the catalog, in this very request
	request(notes, true)  // unchanged: nothing
	request(notes, false) // Exec switched off: the catalog no longer applies
	request(notes, true)  // switched on again: the full catalog again
	request(nil, false)   // the server goes away: no MCP tools now

	// Output:
	// nothing to append
	// appended: full
	// nothing to append
	// appended: withdrawn
	// appended: full
	// appended: empty
}

// The server-instructions channel: a server's initialize instructions are
// appended once, when it becomes available.
func ExampleInstructions() {
	history := broadcast.NewHistory()
	servers := []broadcast.ServerInstructions{{Server: "notes", Instructions: "Search before you create a note."}}
	for range 2 {
		msgs, _ := broadcast.Instructions(history, servers)
		history.Append(msgs...)
		for _, m := range msgs {
			fmt.Println(m.Text)
		}
	}
	// Output:
	// Usage instructions from the MCP server "notes" (they replace any earlier instructions from it):
	//
	// Search before you create a note.
}
