package mcpexec

// msgNoMCPManager is the Exec result of a session without MCP servers
// (EDGE-5).
const msgNoMCPManager = "This session has no MCP manager: no MCP servers are configured, so there are no tools to call."
