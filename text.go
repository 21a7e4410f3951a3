package mcpexec

// msgNoMCPManager is the Exec result of a session without MCP servers
// (EDGE-5).
const msgNoMCPManager = "This session has no MCP manager: no MCP servers are configured, so there are no tools to call."

// msgExecOff is the Exec result when Exec is switched off or not in the
// agent's tool set.
const msgExecOff = "Exec is not available in this session: call the MCP tools directly."

// msgNotPrepared is the Exec result when the run could not be prepared (the
// view of the pool it needs failed).
const msgNotPrepared = "The script did not run: the sandbox could not be prepared for it. Try again."
