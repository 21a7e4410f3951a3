package gateway

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
)

// benchScript makes one nested call, so both benchmarks pay for a worker
// run and a server round trip; the difference is the gateway's own cost
// (an MCP request and response in memory, the result conversion).
const benchScript = `return await tools.mcp__b__text({})`

// BenchmarkExecDirect runs Exec through the library, as an embedding host
// does.
func BenchmarkExecDirect(b *testing.B) {
	f := start(b, allowB, mcpexec.Options{})
	args, _ := json.Marshal(map[string]string{"code": benchScript})
	b.ResetTimer()
	for b.Loop() {
		if res := f.sys.Exec(context.Background(), args, nil); !res.OK {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkExecThroughGateway runs the same Exec as an MCP client of the
// gateway (in memory), with a progress token.
func BenchmarkExecThroughGateway(b *testing.B) {
	f := start(b, allowB, mcpexec.Options{})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := f.gw.Server().Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ResetTimer()
	for b.Loop() {
		params := &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": benchScript}}
		params.SetProgressToken("bench")
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkExecRoundTripThroughGateway runs the same Exec with its nested
// call under an ask rule, for a 2026-07-28 client whose SDK answers the
// question (allow once) and retries: the run parks, the call returns
// input_required, and the retry resumes it. The difference from
// BenchmarkExecThroughGateway is the cost of parking and resuming.
func BenchmarkExecRoundTripThroughGateway(b *testing.B) {
	f := start(b, `{"permissions": {"ask": ["mcp__b__text"]}}`, mcpexec.Options{})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := f.gw.Server().Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	once := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{answerField: answerOnce}}, nil
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: once}).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Exec", Arguments: map[string]string{"code": benchScript}})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
