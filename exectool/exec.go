package exectool

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/catalog"
)

// Name is the tool's name in tools[], in permission rules and in the
// collapsed line.
const Name = "Exec"

// ConcurrencySafe is false: a script can reach any MCP tool, so Exec is
// conservatively treated as unsafe to run beside other tools (NFR-9).
const ConcurrencySafe = false

// Description returns Exec's description in tools[]: the same bytes for
// every pool and every call. It names the reserved search namespace from the
// same constants the sandbox and the catalog use, and nothing of the pool.
func Description() string { return description }

// DescriptionWithCatalog returns Exec's description for a client that owns
// its conversation (an MCP client of a gateway), where no catalog message
// can be appended: the same text, pointing at the catalog that follows it
// instead of at catalog messages. catalog is the rendered catalog body;
// instructions are the servers' usage instructions. The same inputs give
// the same bytes.
func DescriptionWithCatalog(catalog string, instructions []broadcast.ServerInstructions) string {
	var b strings.Builder
	b.WriteString(strings.Replace(description, catalogInConversation, catalogBelow, 1))
	b.WriteString("\n\n")
	b.WriteString(catalogHeading)
	b.WriteString(catalog)
	for _, in := range instructions {
		b.WriteString("\n\n")
		b.WriteString(instructionsHeading(in.Server))
		b.WriteString(in.Instructions)
	}
	return b.String()
}

// The sentence that says where the catalog is, as the conversation channel
// and a description carry it.
const (
	catalogInConversation = "The tools available are listed in catalog messages in the conversation."
	catalogBelow          = "The tools available are listed in the MCP tool catalog below."
	catalogHeading        = "MCP tool catalog:\n\n"
)

// InstructionsText is the servers' usage instructions as one text, each
// under the heading that names its server, as Exec's description carries
// them: what a host without Exec gives the model instead.
func InstructionsText(instructions []broadcast.ServerInstructions) string {
	var b strings.Builder
	for i, in := range instructions {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(instructionsHeading(in.Server))
		b.WriteString(in.Instructions)
	}
	return b.String()
}

func instructionsHeading(server string) string {
	return "Usage instructions from the MCP server \"" + server + "\":\n\n"
}

var description = fmt.Sprintf(`Run a JavaScript or TypeScript script in an isolated sandbox that can call MCP tools.

The script is the body of an async function: use await, and return a value. Type annotations are allowed and ignored. The global "tools" holds every MCP tool available in this session as an async function, under the full name the catalog gives it: await tools.<name>({ ...arguments }) resolves to the tool's output: its structured result when it has one, otherwise its text, otherwise null. Names that are not JavaScript identifiers take brackets: tools["<name>"]({ ... }). Arguments must be a plain object. Chain several calls in one script and pass results from one to the next; a failed call rejects, and try/catch lets the script go on.

store(key, value) keeps a JSON value for later scripts of this conversation and load(key) returns a copy of it (undefined when there is none); a return value too long to show whole is kept the same way, under the id its note gives.

`+catalogInConversation+` %s is reserved for the sandbox's own entries: when a catalog says it is partial, it shows how to search the full pool there.

console.log output is returned together with the return value. Besides tools, console, store and load, the standard JavaScript built-ins and these web globals exist: setTimeout, setInterval, queueMicrotask, URL, URLSearchParams, atob, btoa, TextEncoder, TextDecoder, structuredClone, crypto.randomUUID, crypto.getRandomValues, performance.now. Intl formats for the en-US locale and the UTC time zone unless the host set others. The sandbox has no require, import, eval, fetch, file system or network. The script runs under a time budget; tool calls that completed before a failure stay in effect.`,
	fmt.Sprintf("tools[%q]", catalog.SearchNamespace))

// inputSchema is the parameter schema: one required string.
var inputSchema = json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":"The JavaScript or TypeScript to run: the body of an async function. Use await for tool calls and return the result."}},"required":["code"],"additionalProperties":false}`)

// InputSchema returns the parameter schema (a fresh copy).
func InputSchema() json.RawMessage { return append(json.RawMessage(nil), inputSchema...) }

// ErrBadArguments marks an argument error: Exec returns it as a failed
// result without starting a sandbox (EDGE-8).
var ErrBadArguments = errors.New("exec: bad arguments")

// ParseArguments returns the script from Exec's arguments. Missing, non-string
// or blank code is an argument error whose message is written for the model.
func ParseArguments(args json.RawMessage) (code string, err error) {
	var in struct {
		Code *json.RawMessage `json:"code"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return "", argumentError(`Exec takes one argument object: { "code": "<the JavaScript to run>" }.`)
	}
	if in.Code == nil {
		return "", argumentError(`Exec needs "code": the JavaScript to run.`)
	}
	if err := json.Unmarshal(*in.Code, &code); err != nil {
		return "", argumentError(`"code" must be a string holding the JavaScript to run.`)
	}
	if strings.TrimSpace(code) == "" {
		return "", argumentError(`"code" is empty: pass the JavaScript to run.`)
	}
	return code, nil
}

type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }
func (e *argError) Unwrap() error { return ErrBadArguments }

func argumentError(msg string) error { return &argError{msg: msg} }
