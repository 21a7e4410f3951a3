package testservers

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The ledger's sign tool asks over several rounds, as a stateless server
// of MCP 2026-07-28 does: what it learned in one round travels in the
// requestState it hands out, and comes back with the next round's answers.

// The sign tool's questions.
const (
	SignMessage    = "Who signs the ledger entry?"
	WitnessMessage = "Who witnesses the signature?"
)

// SignSchema and WitnessSchema are the sign tool's forms, written with
// their keys out of sorted order, so that a test can tell the server's
// bytes from a re-encoding.
var (
	SignSchema = json.RawMessage(`{"type":"object","properties":{"signer":{"type":"string","title":"Signer"},` +
		`"role":{"type":"string","title":"Role","enum":["owner","clerk"]}},"required":["signer"]}`)
	WitnessSchema = json.RawMessage(`{"type":"object","properties":{"witness":{"type":"string","title":"Witness"}},"required":["witness"]}`)
)

// The keys of the sign tool's input requests, and the prefixes of its
// requestStates.
const (
	signSignerKey  = "signer"
	signRootsKey   = "where"
	signWitnessKey = "witness"
	signRound1     = "sign-round-1"
	signRound2     = "sign-round-2."
)

// signCounts counts the sign tool's legs.
type signCounts struct {
	started, legs, finished int
}

// signedSoFar is what the first round learned, carried in the second
// round's requestState.
type signedSoFar struct {
	Signer map[string]any `json:"signer"`
	Roots  []string       `json:"roots"`
}

// leg serves one leg of a sign call: a fresh call, or one continuing a
// round by its state.
func (c *signCounts) leg(state string, responses mcp.InputResponseMap) *mcp.CallToolResult {
	c.legs++
	switch {
	case state == "":
		c.started++
		return &mcp.CallToolResult{RequestState: signRound1, InputRequests: mcp.InputRequestMap{
			signSignerKey: &mcp.ElicitParams{Mode: "form", Message: SignMessage, RequestedSchema: SignSchema},
			signRootsKey:  &mcp.ListRootsParams{},
		}}
	case state == signRound1:
		signer, ok1 := responses[signSignerKey].(*mcp.ElicitResult)
		roots, ok2 := responses[signRootsKey].(*mcp.ListRootsResult)
		if !ok1 || !ok2 {
			return errorResult("sign: the first round's answers are missing")
		}
		soFar := signedSoFar{Signer: signer.Content, Roots: []string{}}
		for _, r := range roots.Roots {
			soFar.Roots = append(soFar.Roots, r.URI)
		}
		data, _ := json.Marshal(soFar)
		return &mcp.CallToolResult{RequestState: signRound2 + base64.RawURLEncoding.EncodeToString(data), InputRequests: mcp.InputRequestMap{
			signWitnessKey: &mcp.ElicitParams{Mode: "form", Message: WitnessMessage, RequestedSchema: WitnessSchema},
		}}
	case strings.HasPrefix(state, signRound2):
		var soFar signedSoFar
		data, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(state, signRound2))
		witness, ok := responses[signWitnessKey].(*mcp.ElicitResult)
		if err != nil || json.Unmarshal(data, &soFar) != nil || !ok {
			return errorResult("sign: the second round's state or answer is wrong")
		}
		c.finished++
		out, _ := json.Marshal(map[string]any{"signer": soFar.Signer, "roots": soFar.Roots, "witness": witness.Content})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}
	}
	return errorResult("sign: unknown requestState")
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
