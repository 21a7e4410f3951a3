package catalog

import "encoding/json"

// SearchNamespace is the reserved namespace of the in-sandbox search entry:
// scripts call tools[SearchNamespace][SearchMethod]({ query }). The sandbox,
// the Exec description and the rendered search section all take the name from
// here so they cannot drift apart (NFR-4, NFR-5).
const (
	SearchNamespace = "$codemode"
	SearchMethod    = "search"
)

// Tool is one pool entry as the catalog sees it. The pool snapshot converts
// its tools into this shape; the catalog never talks to servers.
type Tool struct {
	// Name is the full routed name, mcp__<server>__<tool>.
	Name        string
	Description string
	// InputSchema and OutputSchema are the JSON Schemas from tools/list,
	// exactly as the server sent them; either may be nil.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Observed is what calls of the tool were seen to return (a
	// shapes.Note rendered), "" when nothing was. The catalog shows it as a
	// line of its own after the signature, which stays what the server
	// declared; a declared OutputSchema wins, and Observed is then ignored.
	Observed string
	// Task marks a tool whose calls may run as MCP tasks on its server
	// (long-running): its JSDoc line ends in the @task tag.
	Task bool
}

// Catalog is one rendering of a pool.
type Catalog struct {
	// Body is the complete model-visible catalog text: the entries grouped by
	// server, and when truncated the PARTIAL line, the per-server summary lines
	// and the search section. For an empty pool it is the "no MCP tools are
	// currently available" statement.
	Body string
	// Truncated reports whether some entries were left out by the budget.
	Truncated bool
	// Shown and Total count the entries rendered and the entries in the pool.
	Shown, Total int
	// Namespaces maps each grouping key (the second "__" segment of a name)
	// to its tool count in the pool.
	Namespaces map[string]int
}
