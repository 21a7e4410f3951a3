package catalog

// Every model-visible string of the catalog and of search lives here, so the
// wording can be read, reviewed and changed in one place. None of it may
// carry a tuning number (budget, limit, width): the catalog must stay
// byte-stable when those change (D4, CAT-6, NFR-5).

const (
	// emptyBodyText is the whole body when the pool is empty (CAT-9). It
	// must not name the outer tool, which is not declared at that moment.
	emptyBodyText = "No MCP tools are currently available; later updates may add or remove tools."

	// leadText opens a non-empty catalog.
	leadText = "MCP tools callable from a script through the `tools` object, grouped by server. " +
		"Call each exactly as its signature shows; the call resolves to the tool's output. " +
		"What one script stores, the next can load: `store(\"issues\", issues)`, then `const issues = load(\"issues\")`."

	// groupHeaderPrefix starts the header line of a server's group.
	groupHeaderPrefix = "// "

	// summaryIntroText introduces the per-server summary lines of a
	// truncated catalog (CAT-10).
	summaryIntroText = "All servers in the pool:"

	// searchIntroText introduces the search signature of a truncated catalog
	// (CAT-12, SEARCH-7).
	searchIntroText = "The catalog above is partial. This call lists or searches the full pool " +
		"and returns matching tools with signatures in the same form as above:"

	// partialFormat is the truncation line (CAT-4): shown and total counts.
	partialFormat = "PARTIAL: %d of %d tools shown."

	// summaryFormat* are the per-server summary lines (CAT-10).
	summaryAllFormat  = "- mcp__%s (%s)"
	summarySomeFormat = "- mcp__%s (%s, %d shown)"
	summaryNoneFormat = "- mcp__%s (%s, none shown)"
	toolCountOne      = "1 tool"
	toolCountFormat   = "%d tools"

	// observedPrefix starts the line after a signature that says what the
	// tool's calls were seen to return, when it declares no output schema.
	observedPrefix = "// observed: "

	// ellipsis marks a tool description cut to the summary width.
	ellipsis = "…"
)

// searchSchemaJSON is the search entry's input schema: the single source of
// its call form, its argument validation and its shape error (NFR-4,
// SEARCH-8, SEARCH-9). The query description is model-visible (CAT-12).
const searchSchemaJSON = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "description": "What the tool should do, in a few words (as in \"send a message to a channel\"), matched against tool and server names, descriptions and parameters; the best matches come first. Omit query (or pass an empty string) to list the full pool."
    }
  },
  "additionalProperties": false
}`

// searchOutputSchemaJSON describes what a search call resolves to: the
// array of matching entries itself (SEARCH-2).
const searchOutputSchemaJSON = `{
  "type": "array",
  "items": {
    "type": "object",
    "properties": {
      "name": {
        "type": "string",
        "description": "The tool's full name."
      },
      "description": {
        "type": "string",
        "description": "The tool's complete description."
      },
      "signature": {
        "type": "string",
        "description": "The call form with argument and result types, as in the catalog."
      }
    },
    "required": ["name", "description", "signature"]
  }
}`

const (
	// searchNotObjectFormat rejects arguments that are not a JSON object
	// (EDGE-24); %s is the search signature.
	searchNotObjectFormat = "search arguments must be a plain object, as in:\n%s"
	// searchShapeFormat rejects an object of the wrong shape (SEARCH-9);
	// the first %s says what is wrong, the second is the search signature.
	searchShapeFormat = "search arguments do not match the expected shape (%s); call it as:\n%s"

	unknownFieldFormat = "unknown field %s"
	missingFieldFormat = "missing field %s"
	wrongTypeFormat    = "field %s must be of type %s"
	notObjectText      = "arguments are not an object"
)
