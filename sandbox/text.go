package sandbox

import (
	"fmt"

	"github.com/mcpexec/mcpexec/catalog"
	"github.com/mcpexec/mcpexec/state"
)

// Every string a script or the model can read from this package lives here.
// They are English, stable for the same input, and carry no limit or budget
// figure: counts they do state are facts about this run, never tuning.

// SearchCallName is the name a search takes in the list of nested calls: the
// call form the catalog renders for it.
var SearchCallName = catalog.SearchCallForm()

// searchCallForm is how errors point at the search entry.
var searchCallForm = SearchCallName + "(...)"

func msgUnknownTool(name string) string {
	return fmt.Sprintf("Unknown tool %q: only MCP tools in the current pool are reachable. Use %s to find one.", name, searchCallForm)
}

func msgServerDown(name, server, why string) string {
	return fmt.Sprintf("MCP tool %q is not available: its server %q is not connected: %s", name, server, why)
}

func msgSearchNotTopLevel() string {
	return fmt.Sprintf("tools.search is not reachable: search lives only at %s. Use it to find the tool you need.", searchCallForm)
}

const (
	msgNotPlainObject  = "Arguments must be a plain object"
	msgCallLimit       = "Call limit reached: this run may make no more tool calls, so this call was not made. Calls already made stay in effect."
	msgOverBudget      = "Terminated: the script ran over its time budget. Tool calls that had already completed stay in effect."
	msgAborted         = "Aborted: the run was cancelled before it finished. Tool calls that had already completed stay in effect."
	msgExpired         = "Expired: the run waited longer than it may for the user's answer, so it was cancelled, and the calls waiting for the answer did not run. Tool calls that had already completed stay in effect."
	msgNeverSettles    = "Terminated: the script is waiting on a promise that nothing can settle (no tool call or timer is pending). Tool calls that had already completed stay in effect."
	msgImport          = "import() is not available: the sandbox cannot load modules. Reach MCP tools through the tools global."
	msgImportStatement = "import statements are not available: the sandbox cannot load modules. Reach MCP tools through the tools global."
	msgExportStatement = "export statements are not available: the script is the body of a function, not a module. Return the value instead."
	msgImportMeta      = "import.meta is not available: the script is the body of a function, not a module."
	msgRequire         = "require is not available: the sandbox cannot load modules. Reach MCP tools through the tools global."
	msgTimerCallback   = "The first argument of setTimeout and setInterval must be a function."
	msgMixedBigInt     = "Cannot mix BigInt and other types, use explicit conversions"
	msgTooManyTimers   = "Too many timers are scheduled at once: clear timers you no longer need, or await each delay in turn."
	msgEngineSyntax    = "SyntaxError: this syntax is not supported by the sandbox's JavaScript engine"
	msgScriptTooLong   = "The script is too long to run. Write a shorter script: loop over data instead of spelling it out."
	msgTransformFailed = "SyntaxError: the sandbox could not rewrite this script for its engine. An async generator with a parameter named arguments is known to cause this: rename the parameter."
	msgCodeGeneration  = "Code generation from strings is not allowed in the sandbox"
	msgNoOutput        = "The script produced no return value and no output."
	msgEmptyCode       = "The script is empty: pass the JavaScript to run as code."
	msgCrashed         = "The sandbox failed while running the script"
	msgRunCrashed      = msgCrashed + ". Tool calls that had already completed stay in effect."
	msgHostCallCrashed = "The tool call failed inside the host."

	msgWorkerOutOfMemory   = "The sandbox process stopped: the script used more memory than it may. Tool calls that had already completed stay in effect."
	msgWorkerStackOverflow = "The sandbox process stopped: the script nested too deeply. Tool calls that had already completed stay in effect."
	msgWorkerCrashed       = "The sandbox process stopped unexpectedly. Tool calls that had already completed stay in effect."
	msgWorkerUnavailable   = "The sandbox could not be started, so the script did not run."
	msgAllWorkersParked    = "Every sandbox is held by a run that waits for the user's answer, so the script did not run. Once the user answers or cancels one of those runs, try again."
	msgResultTooLarge      = "The tool returned more data than can be passed to the script."
	msgStateUnreadable     = "The stored value could not be read."
	msgWholeLost           = "[the whole return value did not arrive from the sandbox, so only the first part above can be read]"
)

func msgNoState(function string) string {
	return function + " is not available: this session keeps no state between scripts."
}

func msgStateKey(function string) string {
	if function == "store" {
		return "store(key, value): the key must be a string"
	}
	return function + "(key): the key must be a string"
}

// The failures of a run on a sandbox node (another machine), exported for
// the actors that run it.
const (
	MsgMachineLost   = "The sandbox machine was lost while running the script. Tool calls that had already completed stay in effect."
	MsgMachineSilent = "The sandbox machine stopped answering while running the script. Tool calls that had already completed stay in effect."
	MsgNoMachine     = "No sandbox machine is available, so the script did not run."
)

func msgLogTruncated(total int) string {
	return fmt.Sprintf("[console output truncated: %d characters in all]", total)
}

func msgFailureTruncated(total int) string {
	return fmt.Sprintf("[error text truncated: %d characters in all]", total)
}

func msgResultTruncated(total int) string {
	return fmt.Sprintf("[return value truncated: %d characters in all]", total)
}

// msgResultKept ends the first part of a return value kept whole under id.
func msgResultKept(total int, id string) string {
	return fmt.Sprintf("[return value truncated: %d characters in all; the whole value is kept as %s, and load(%q) in a later script returns it]",
		total, state.URI(id), id)
}

// msgResultNotKept ends the first part of a return value too large to
// keep; bytes is its size as JSON.
func msgResultNotKept(total int, bytes int64) string {
	return fmt.Sprintf("[return value truncated: %d characters in all; the whole value (%s) is too large to keep, so only this first part can be read]",
		total, state.FormatBytes(bytes))
}

func msgImagesDropped(n int) string {
	if n == 1 {
		return "[1 more image was dropped]"
	}
	return fmt.Sprintf("[%d more images were dropped]", n)
}
