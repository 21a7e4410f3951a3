package sandbox

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync/atomic"
)

// Host executes what a script asks of the outside world. Run calls it from
// goroutines of its own, never from the runtime's goroutine, and cancels ctx
// when the run ends; implementations must honour ctx.
type Host interface {
	// CallTool executes one nested MCP call by its full name with the
	// script's argument object as JSON, byte for byte as the script built it.
	// An error is shown to the script as the call's rejection reason, so its
	// message must be written for the model.
	CallTool(ctx context.Context, name string, args json.RawMessage) (CallResult, error)
	// Search runs the in-sandbox search with the script's argument object as
	// JSON and returns the result entries as a JSON array. An error (for
	// example a wrong argument shape) is shown to the script.
	Search(ctx context.Context, args json.RawMessage) (json.RawMessage, error)
}

// AsyncHost is a Host that is handed a worker's nested calls as they
// arrive, instead of being called on a goroutine of its own for each: the
// exec actor routes calls through its mailbox this way, so the connection's
// reader hands a call straight to it. Start must return at once, and the
// call must be answered (Call.Answer), on any goroutine.
type AsyncHost interface {
	Host
	Start(ctx context.Context, call *Call)
}

// Call is one nested call a script made in a worker, handed to an
// AsyncHost. ctx (given to Start) ends with the run.
type Call struct {
	// Search marks the in-sandbox search (Name is then SearchCallName).
	Search bool
	// Name is the tool's full name; Args the script's argument object as
	// JSON, byte for byte.
	Name string
	Args json.RawMessage

	h        *hostSide
	id       uint64
	kind     string
	answered atomic.Bool
}

// Answer gives the script the call's outcome. Only the first answer counts;
// later ones are ignored, so a call can be answered by whichever comes
// first of its result and the end of its run.
func (c *Call) Answer(res CallResult, err error) {
	if c.answered.CompareAndSwap(false, true) {
		c.h.answer(c.id, c.kind, res, err)
	}
}

// CallResult is one nested call's output.
type CallResult struct {
	// Value is what the script receives, as JSON: the structuredContent
	// object if the server returned one, else the text as a JSON string,
	// else null (an empty Value also means null).
	Value json.RawMessage
	// Images travel beside the value to the model; the script never sees
	// them.
	Images []Image
}

// Image is one image a nested call returned.
type Image struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// ToolSet is the set of tool names a run can reach: the pool snapshot at the
// moment the run starts. Callers that run many scripts against one snapshot
// build it once.
type ToolSet struct {
	names   []string
	set     map[string]struct{}
	refused []string
	down    map[string]string // configured servers that are not connected: why
}

// reservedToolNames are names a tool may not take, because on the tools
// object they would change how the object itself behaves: then would make
// it a thenable (await tools would call the tool), toString, valueOf and
// the well-known symbols' names would hijack conversions, toJSON
// serialization, and the rest are Object.prototype members a script relies
// on. Tools reached through an MCP pool never clash (their names start with
// mcp__); this guards tool sets built by hand.
var reservedToolNames = map[string]bool{
	"then": true, "catch": true, "finally": true,
	"toString": true, "valueOf": true, "toLocaleString": true, "toJSON": true,
	"constructor": true, "__proto__": true,
	"hasOwnProperty": true, "isPrototypeOf": true, "propertyIsEnumerable": true,
	"__defineGetter__": true, "__defineSetter__": true, "__lookupGetter__": true, "__lookupSetter__": true,
	"Symbol.toPrimitive": true, "Symbol.iterator": true, "Symbol.asyncIterator": true,
	"Symbol.toStringTag": true, "Symbol.hasInstance": true,
}

// NewToolSet builds a ToolSet from full tool names. Names that would change
// how the tools object behaves (then, toString, valueOf, constructor,
// __proto__, toJSON and the like) are refused: they are left out, and
// Refused lists them.
func NewToolSet(names []string) *ToolSet {
	ts := &ToolSet{set: make(map[string]struct{}, len(names))}
	for _, n := range names {
		if reservedToolNames[n] {
			ts.refused = append(ts.refused, n)
			continue
		}
		if _, dup := ts.set[n]; !dup {
			ts.set[n] = struct{}{}
			ts.names = append(ts.names, n)
		}
	}
	sort.Strings(ts.names)
	return ts
}

// Refused returns the names NewToolSet left out because a tool may not take
// them.
func (ts *ToolSet) Refused() []string {
	if ts == nil {
		return nil
	}
	return ts.refused
}

// Has reports whether name is reachable.
func (ts *ToolSet) Has(name string) bool {
	if ts == nil {
		return false
	}
	_, ok := ts.set[name]
	return ok
}

// Names returns the reachable names, sorted.
func (ts *ToolSet) Names() []string {
	if ts == nil {
		return nil
	}
	return ts.names
}

// WithDown returns a copy of ts that also knows the configured servers that
// are not connected (server name -> why, e.g. "still starting" or the
// connection error), so that a call to one of their tools says so instead
// of calling the tool unknown.
func (ts *ToolSet) WithDown(down map[string]string) *ToolSet {
	out := &ToolSet{}
	if ts != nil {
		*out = *ts
	}
	if out.set == nil {
		out.set = map[string]struct{}{}
	}
	out.down = down
	return out
}

// refusal is the message for a call to name, which is not reachable.
func (ts *ToolSet) refusal(name string) string {
	if ts != nil {
		server := ""
		for s := range ts.down {
			if strings.HasPrefix(name, mcpPrefix+s+"__") && len(s) > len(server) {
				server = s
			}
		}
		if server != "" {
			return msgServerDown(name, server, ts.down[server])
		}
	}
	return msgUnknownTool(name)
}

// Down returns the configured servers that are not connected, with why
// (see WithDown).
func (ts *ToolSet) Down() map[string]string { return ts.downServers() }

// downServers is what crosses to a worker.
func (ts *ToolSet) downServers() map[string]string {
	if ts == nil {
		return nil
	}
	return ts.down
}
