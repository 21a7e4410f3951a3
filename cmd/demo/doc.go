// Command demo shows mcpexec end to end: a pool of MCP servers folded into
// one Exec tool.
//
// With no arguments it runs a guided tour of about five seconds. It starts
// its built-in MCP servers as real stdio subprocesses and shows, step by
// step, the tool declarations, the catalog message, an Exec that chains
// calls with a live summary, the values a script receives, truncation and
// search under a small budget, a permission prompt, a server connecting and
// the catalog update that follows, the enableExec switch flipped by editing
// the settings file, and hostile scripts contained.
//
// Subcommands (a stable interface):
//
//	demo exec [--servers FILE] [--settings FILE] [--timeout D] [--max-calls N]
//	          [--memory-mb N] [--ask allow|deny|prompt] [--json] [OAUTH] (--script FILE | -)
//	demo catalog [--servers FILE] [--settings FILE] [--budget N] [OAUTH]
//	demo tools [--servers FILE] [--settings FILE] [OAUTH]
//	demo serve [--servers FILE] [--settings FILE] [--http ADDR] [OAUTH] ...
//	demo serve-mcp [--offline-while FILE] NAME
//
// where OAUTH is [--oauth-tokens DIR] [--open-browser] [--oauth-port N]
// [--auth-wait D].
//
// exec runs one script and prints the outcome, the result summary and
// exactly the text the model would receive; with --json it prints one line
// {"ok", "text", "images", "summary", "calls"}. --ask answers permission
// questions (default: prompt when standard input is a terminal, deny
// otherwise); a prompt takes y (once), a (always: saved as a rule for the
// leaf tool) or n followed by an optional reason. A call refused under deny
// says how to allow it (an allow rule, or --ask allow). The same goes for
// the questions servers ask the person during a call (elicitation): on a
// terminal a form is filled in field by field, each checked against its
// type, choices, bounds and format, with the script's budget stopped
// meanwhile; --ask allow accepts a form with its defaults when they
// complete it; otherwise the question is declined with the reason on
// stderr. catalog prints the catalog
// message a model would find appended to a fresh conversation; tools prints
// the tool declarations as JSON; serve serves the pool as one Exec tool to
// MCP clients, like `mcpexec serve`; serve-mcp serves a built-in server over
// stdio. The commands are the ones cmd/mcpexec runs (package internal/cli).
//
// Without --servers the pool is the built-in servers, run as this binary:
//
//	srv      fetch({id}) and list({tag}) return structured content and declare
//	         an outputSchema; store({value}) keeps a value; delete({id}) is
//	         the destructive tool the default settings ask about
//	text     echo({text}) text only, nothing({}) no content, image({}) one PNG
//	         only, fail({message}) an isError result, sleep({ms}), hang({})
//	weather  forecast({city, days}), made up and deterministic
//
// and unless --settings is given, exec uses settings that allow these tools
// except delete, which asks. --servers takes the common
// {"mcpServers": {...}} file format, so the demo can run against the servers
// a user already has.
//
// A server of that file behind OAuth is authorized once: the command prints
// the authorization URL and waits (--auth-wait D, default 5m) for the
// browser's redirect on a loopback port (--oauth-port N, default any free
// one); --open-browser also opens the URL with $BROWSER or the system's
// opener. Tokens are kept in mcpexec/oauth under the user's configuration
// directory, or in --oauth-tokens DIR, and reused and refreshed next time.
//
// The commands wait for the servers to start (each within its connect
// timeout; exec's --timeout shortens the wait), naming on stderr those still
// starting after a second, and run without a server not up by then. When
// exec, catalog or tools ends, the servers not connected are listed on
// stderr with the reason. A --settings file must exist.
//
// Exit status: 0 on success, 1 when the script failed or the command could
// not do its job, 2 for a bad command line, 3 when exec, catalog or tools
// ran but one or more MCP servers were not connected (this wins over 1),
// 130 when interrupted. Colours are used only when the output is a terminal
// and NO_COLOR is not set.
package main
