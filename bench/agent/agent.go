package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Agent is the scripted model: a task's trajectory calls tools through it,
// one call per model turn, and it keeps the transcript a model would re-read
// on each turn (every call it made and every result it got).
type Agent struct {
	ctx     context.Context
	session *mcp.ClientSession
	// Steps is the transcript: each call as the model wrote it and the
	// result as the model reads it.
	Steps []Step
	// Busy is the wall time spent in tool calls.
	Busy time.Duration
}

// Step is one model turn's tool call and what came back.
type Step struct {
	Call   string
	Result string
}

// Args are a tool call's arguments.
type Args = map[string]any

// Call makes one tool call and returns its result as the model reads it. A
// result the server marks as an error is an error here: the fixed
// trajectories never expect one.
func (a *Agent) Call(tool string, args Args) (string, error) {
	call, err := json.Marshal(map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return "", err
	}
	start := time.Now()
	res, err := a.session.CallTool(a.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	a.Busy += time.Since(start)
	if err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	text, err := resultText(res)
	if err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	a.Steps = append(a.Steps, Step{Call: string(call), Result: text})
	if res.IsError {
		return text, fmt.Errorf("%s failed: %s", tool, text)
	}
	return text, nil
}

// JSON makes one call and decodes its text result, which the fixed
// trajectories know to be JSON.
func (a *Agent) JSON(tool string, args Args, into any) error {
	text, err := a.Call(tool, args)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(text), into); err != nil {
		return fmt.Errorf("%s: result is not the JSON expected: %w", tool, err)
	}
	return nil
}

// Exec runs one code-mode script.
func (a *Agent) Exec(code string) (string, error) {
	return a.Call("Exec", Args{"code": code})
}

// resultText is what a client puts before the model: the content items in
// order, text as sent, anything else as its JSON. structuredContent is not
// shown again: servers send its serialization as text beside it.
func resultText(res *mcp.CallToolResult) (string, error) {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
			continue
		}
		b, err := json.Marshal(c)
		if err != nil {
			return "", err
		}
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "\n"), nil
}
