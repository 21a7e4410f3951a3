package testservers

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The ledger server counts what ran, so a test can prove that a run which
// waited for a person did not repeat a call when it resumed:
//
//	write {"key": "..."}: records the key (annotated destructive)
//	read {"key": "..."}: says whether the key was written (annotated read-only)
//	confirm {"what": "..."}: asks the client a question (ConfirmMessage, a
//	  form of ConfirmSchema) and returns its answer: {"action": ..., "content": ...}
//	visit {}: sends the client to a page (url-mode question VisitMessage,
//	  VisitURL) if it declared url mode, says it finished when accepted
//	  (notifications/elicitation/complete), and returns "visit: " + the action
//	sign {"what": "..."}: asks in two rounds, each with a requestState of
//	  its own: first the signer (SignMessage, a form of SignSchema) and the
//	  client's roots together, then a witness (WitnessMessage, a form of
//	  WitnessSchema); returns what it got, {"signer": content, "roots":
//	  [uris], "witness": content}
//	ran: what ran so far, {"write": [keys in order], "confirm": n, "read": n,
//	  "signStarted": n, "signLegs": n, "signed": n}: sign's first legs, its
//	  legs of every round, and its calls that finished
//
// confirm and sign ask the way the current protocol does, by returning
// input_required; the SDK asks older clients itself.
func Ledger() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ledger", Version: "1"}, nil)
	var (
		mu      sync.Mutex
		writes  []string
		reads   int
		confirm int
		sign    signCounts
	)
	keyArgs := json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`)
	s.AddTool(&mcp.Tool{Name: "write", Description: "Record a key.", InputSchema: keyArgs,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), Title: "Write a key"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			key := argKey(req)
			mu.Lock()
			writes = append(writes, key)
			mu.Unlock()
			return textResult("wrote " + key), nil
		})
	s.AddTool(&mcp.Tool{Name: "read", Description: "Say whether a key was written.", InputSchema: keyArgs,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			key := argKey(req)
			mu.Lock()
			reads++
			found := slices.Contains(writes, key)
			mu.Unlock()
			return textResult(fmt.Sprint(found)), nil
		})
	s.AddTool(&mcp.Tool{Name: "confirm", Description: "Ask the user to confirm something.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"what":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			answer, ok := req.Params.InputResponses[confirmKey].(*mcp.ElicitResult)
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{confirmKey: &mcp.ElicitParams{
					Mode: "form", Message: ConfirmMessage, RequestedSchema: ConfirmSchema,
				}}}, nil
			}
			mu.Lock()
			confirm++
			mu.Unlock()
			out, _ := json.Marshal(map[string]any{"action": answer.Action, "content": answer.Content})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "visit", Description: "Send the user to a page to finish something there.", InputSchema: objectSchema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// A server asks in url mode only a client that declared it.
			if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil || caps.Elicitation.URL == nil {
				return textResult("visit: the client cannot be sent to a page"), nil
			}
			answer, ok := req.Params.InputResponses[visitKey].(*mcp.ElicitResult)
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{visitKey: &mcp.ElicitParams{
					Mode: "url", Message: VisitMessage, URL: VisitURL, ElicitationID: VisitElicitationID,
				}}}, nil
			}
			if answer.Action == "accept" {
				// The page was visited and its business is done.
				_ = req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: VisitElicitationID})
			}
			return textResult("visit: " + answer.Action), nil
		})
	s.AddTool(&mcp.Tool{Name: "sign", Description: "Sign a ledger entry, naming the signer and a witness.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"what":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			return sign.leg(req.Params.RequestState, req.Params.InputResponses), nil
		})
	s.AddTool(&mcp.Tool{Name: "ran", Description: "What ran so far.", InputSchema: objectSchema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			out, _ := json.Marshal(map[string]any{"write": append([]string{}, writes...), "read": reads, "confirm": confirm,
				"signStarted": sign.started, "signLegs": sign.legs, "signed": sign.finished})
			mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
		})
	return s
}

// ConfirmMessage is the question the ledger's confirm tool asks.
const ConfirmMessage = "Confirm the ledger entry?"

// ConfirmSchema is the form the confirm tool asks to fill.
var ConfirmSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"sure": {Type: "boolean", Title: "Sure?"},
		"note": {Type: "string", Title: "Note", Default: json.RawMessage(`"none"`)},
	},
	Required: []string{"sure"},
}

// The visit tool's url-mode question.
const (
	VisitMessage       = "Sign the ledger entry on its page."
	VisitURL           = "https://ledger.example/sign/entry-1"
	VisitElicitationID = "ledger-sign-entry-1"
	visitKey           = "visit"
)

// confirmKey is the confirm tool's input request key.
const confirmKey = "confirm"

// LedgerCommand is like StdioCommand for the ledger server.
func LedgerCommand() (command string, args []string, env map[string]string) {
	command, args, env = StdioCommand("")
	env[envKind] = kindLedger
	return command, args, env
}

func argKey(req *mcp.CallToolRequest) string {
	var args struct {
		Key string `json:"key"`
	}
	_ = json.Unmarshal(req.Params.Arguments, &args)
	return args.Key
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func ptr[T any](v T) *T { return &v }
