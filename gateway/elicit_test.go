package gateway

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpexec/mcpexec"
)

const askEcho = `{"permissions": {"allow": ["mcp__b"], "ask": ["mcp__b__echo"]}}`

// answering is an elicitation handler that gives one answer and records the
// questions it was asked.
type answering struct {
	content map[string]any
	action  string

	mu    sync.Mutex
	asked []string
}

func (a *answering) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	a.mu.Lock()
	a.asked = append(a.asked, req.Params.Message)
	a.mu.Unlock()
	action := a.action
	if action == "" {
		action = "accept"
	}
	return &mcp.ElicitResult{Action: action, Content: a.content}, nil
}

func (a *answering) questions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.asked)
}

// Proves PERM-1 through the gateway: a nested call an ask rule covers
// becomes an elicitation to the client; "allow always" runs the call and
// saves an allow rule for the leaf tool in the settings file.
func TestPERM1_AnAskBecomesAnElicitationAndAlwaysPersists(t *testing.T) {
	f := start(t, askEcho, mcpexec.Options{})
	person := &answering{content: map[string]any{"answer": "allow always"}}
	c := f.connect(t, person.handle)
	text, isError := c.exec(t, context.Background(), `return await tools.mcp__b__echo({x: 1})`, nil)
	if isError || !strings.Contains(text, `{"x":1}`) {
		t.Fatalf("result isError=%v %q, want the echo", isError, text)
	}
	asked := person.questions()
	if len(asked) != 1 || !strings.Contains(asked[0], "mcp__b__echo") || !strings.Contains(asked[0], `{"x":1}`) {
		t.Errorf("questions %q, want one naming mcp__b__echo and its arguments", asked)
	}
	eventually(t, "mcp__b__echo saved to permissions.allow", func() bool {
		allow, _ := readJSON(t, f.settings)["permissions"].(map[string]any)["allow"].([]any)
		return slices.Contains(allow, any("mcp__b__echo"))
	})
}

// Proves PERM-4 through the gateway: a denial with a reason fails the
// script with that reason; declining the question denies too.
func TestPERM4_ADenialReachesTheScriptWithItsReason(t *testing.T) {
	f := start(t, askEcho, mcpexec.Options{})
	person := &answering{content: map[string]any{"answer": "deny", "reason": "not on a Friday"}}
	c := f.connect(t, person.handle)
	text, isError := c.exec(t, context.Background(), `return await tools.mcp__b__echo({})`, nil)
	if !isError || !strings.Contains(text, "not on a Friday") {
		t.Errorf("result isError=%v %q, want a failure with the reason", isError, text)
	}

	decliner := &answering{action: "decline"}
	c2 := f.connect(t, decliner.handle)
	text, isError = c2.exec(t, context.Background(), `return await tools.mcp__b__echo({})`, nil)
	if !isError || !strings.Contains(text, declinedReason) {
		t.Errorf("declined: isError=%v %q, want a failure saying so", isError, text)
	}
}

// A client without elicitation cannot be asked: the call is refused with
// guidance the model can pass on, naming the rule that would permit it.
func TestWithoutElicitationTheCallIsRefusedWithGuidance(t *testing.T) {
	f := start(t, askEcho, mcpexec.Options{})
	c := f.connect(t, nil)
	text, isError := c.exec(t, context.Background(), `return await tools.mcp__b__echo({})`, nil)
	if !isError || !strings.Contains(text, "does not support elicitation") || !strings.Contains(text, `"mcp__b__echo" to permissions.allow`) {
		t.Errorf("result isError=%v %q, want a refusal with guidance", isError, text)
	}
}

// Questions go to the session whose script made the call, never to another
// client of the same gateway.
func TestQuestionsGoToTheSessionThatRanTheScript(t *testing.T) {
	f := start(t, askEcho, mcpexec.Options{})
	alice := &answering{content: map[string]any{"answer": "allow once"}}
	bob := &answering{content: map[string]any{"answer": "deny", "reason": "bob says no"}}
	a, b := f.connect(t, alice.handle), f.connect(t, bob.handle)

	if text, isError := a.exec(t, context.Background(), `return await tools.mcp__b__echo({from: "alice"})`, nil); isError {
		t.Errorf("alice's script failed: %s", text)
	}
	if text, isError := b.exec(t, context.Background(), `return await tools.mcp__b__echo({from: "bob"})`, nil); !isError || !strings.Contains(text, "bob says no") {
		t.Errorf("bob's script: isError=%v %q, want bob's denial", isError, text)
	}
	if q := alice.questions(); len(q) != 1 || !strings.Contains(q[0], "alice") {
		t.Errorf("alice was asked %q", q)
	}
	if q := bob.questions(); len(q) != 1 || !strings.Contains(q[0], "bob") {
		t.Errorf("bob was asked %q", q)
	}
}
