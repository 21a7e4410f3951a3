// Package cli holds the commands of the command-line programs: the guided
// tour, exec, catalog, tools and the built-in MCP servers. Each command has
// one implementation, whichever program runs it.
package cli
