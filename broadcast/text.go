package broadcast

import "strconv"

// Model-visible text of both channels. Everything the model reads from this
// package is built here, from pool facts only (namespaces, tool counts,
// server names, the rendered catalog, the server's own instructions). No
// notice names the tool Exec: when a notice is sent Exec may not be declared,
// and naming it would point at something that cannot be called.

// fullLead opens every full catalog message.
const fullLead = "MCP tool catalog. It replaces every MCP tool catalog and catalog update given earlier in this conversation.\n\n"

// fullText is the complete text of a full catalog message.
func fullText(body string) string { return fullLead + body }

// diffLead opens every namespace-level update. A diff is only ever sent
// against a truncated catalog, so that catalog shows the search call; the
// call form itself is never written here (it is rendered from its schema).
const diffLead = "MCP tool catalog update. It applies to the most recent full MCP tool catalog above and replaces any earlier update to it. Servers not named here are unchanged. The tools of a new or changed server are not listed here: find their current signatures with the search call shown in that catalog before calling them.\n"

const (
	diffAddedHeader   = "New servers:\n"
	diffChangedHeader = "Servers whose tools changed (their listed entries may be outdated):\n"
	diffRemovedHeader = "Servers now offline (do not use their listed entries):\n"
)

// Namespace lines of a diff. The test of the model's view parses them back,
// so keep each to one line in one of these shapes.
func diffAddedLine(namespace string, count int) string {
	return "- mcp__" + namespace + " (" + toolCount(count) + ")\n"
}

func diffChangedLine(namespace string, was, now int) string {
	return "- mcp__" + namespace + " (" + toolCount(now) + ", was " + strconv.Itoa(was) + ")\n"
}

func diffRemovedLine(namespace string) string {
	return "- mcp__" + namespace + "\n"
}

func toolCount(n int) string {
	if n == 1 {
		return "1 tool"
	}
	return strconv.Itoa(n) + " tools"
}

// emptyNotice tells a model that has read a catalog that the pool is now
// empty.
const emptyNotice = "No MCP tools are available now; later updates may add or remove some. Do not use the entries of any MCP tool catalog given earlier."

// withdrawnNotice tells the model that the catalog it read no longer applies
// (the tools may be declared directly instead).
const withdrawnNotice = "The MCP tool catalog given earlier no longer applies: do not use the entries it listed."

// instructionsHeader opens the message carrying one server's initialize
// instructions, which follow it verbatim and untrimmed.
func instructionsHeader(server string) string {
	return "Usage instructions from the MCP server \"" + server + "\" (they replace any earlier instructions from it):\n\n"
}
