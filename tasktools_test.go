package mcpexec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// server-everything's simulate-research-query declares taskSupport
// "required": a plain tools/call of it fails, so a script reaches it only
// because the pool runs it as a task.

func everything(t *testing.T) pool.ServerConfig {
	t.Helper()
	bin, err := filepath.Abs(".tools/npm/node_modules/.bin/mcp-server-everything")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run `make deps` to install the npm MCP test servers", bin)
	}
	return stdioServer("everything", bin, []string{"stdio"}, nil)
}

const research = `tools["mcp__everything__simulate-research-query"]`

func TestAScriptAwaitsATaskToolsResult(t *testing.T) {
	sys := startServers(t, mcpexec.Options{}, everything(t))
	var mu sync.Mutex
	var summaries []string
	args, _ := json.Marshal(map[string]string{"code": `const r = await ` + research + `({topic: "tide pools"}); return r.split("\n")[0];`})
	res := sys.Exec(context.Background(), args, func(s string) {
		mu.Lock()
		summaries = append(summaries, s)
		mu.Unlock()
	})
	if !res.OK || res.Text != "# Research Report: tide pools" {
		t.Fatalf("result = %q (ok %v)", res.Text, res.OK)
	}
	mu.Lock()
	defer mu.Unlock()
	// The server moves to its next stage about as often as it asks to be
	// polled, so a poll may miss a stage: every stage seen is shown, in
	// the server's order, and the line goes once the task has ended.
	const call = "1 tool call\nmcp__everything__simulate-research-query"
	stages := []string{"Gathering sources...", "Analyzing content...", "Synthesizing findings...", "Generating report..."}
	next := 0
	for _, s := range summaries {
		stage, ok := strings.CutPrefix(s, call+"\nmcp__everything__simulate-research-query: ")
		if !ok {
			continue
		}
		i := slices.Index(stages[next:], stage)
		if i < 0 {
			t.Fatalf("live summaries %q: %q is no stage after %q", summaries, stage, stages[:next])
		}
		next += i + 1
	}
	if next == 0 {
		t.Errorf("live summaries %q show none of the task's status messages", summaries)
	}
	if len(summaries) == 0 || summaries[len(summaries)-1] != call {
		t.Errorf("live summaries %q: want the last to be the call alone, its task ended", summaries)
	}
}

func TestATaskToolsQuestionIsAnsweredThroughElicitation(t *testing.T) {
	asked := make(chan elicit.Request, 1)
	answer := elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		asked <- r
		return elicit.Response{Action: elicit.Accept, Content: map[string]any{"interpretation": "snake"}}, nil
	})
	sys := startServers(t, mcpexec.Options{Elicitor: answer}, everything(t))
	res := run(sys, `const r = await `+research+`({topic: "python", ambiguous: true}); return r.split("\n")[0];`)
	if !res.OK || res.Text != "# Research Report: python (snake)" {
		t.Fatalf("result = %q (ok %v)", res.Text, res.OK)
	}
	q := <-asked
	if q.Server != "everything" || !strings.Contains(q.Message, `"python" could have multiple interpretations`) {
		t.Errorf("question = %+v", q)
	}
}

// A task that asked a question ends with tasks/result, usually before a
// tasks/get sees it completed: once its call returned, the run's live
// summary no longer shows the task's status line.
func TestATaskToolsLineLeavesTheSummaryOnceItsCallReturned(t *testing.T) {
	asked := make(chan elicit.Request, 1)
	answer := elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		asked <- r
		return elicit.Response{Action: elicit.Accept, Content: map[string]any{"interpretation": "comedy"}}, nil
	})
	sys := startServers(t, mcpexec.Options{Elicitor: answer}, everything(t))
	var mu sync.Mutex
	var summaries []string
	args, _ := json.Marshal(map[string]string{"code": `const r = await ` + research + `({topic: "python", ambiguous: true});
		await tools.mcp__everything__echo({message: "next"}); return r.split("\n")[0];`})
	res := sys.Exec(context.Background(), args, func(s string) {
		mu.Lock()
		summaries = append(summaries, s)
		mu.Unlock()
	})
	if !res.OK || res.Text != "# Research Report: python (comedy)" {
		t.Fatalf("result = %q (ok %v)", res.Text, res.OK)
	}
	select {
	case <-asked:
	default:
		t.Fatal("the research tool asked no question")
	}
	mu.Lock()
	defer mu.Unlock()
	// The summary the second call brought is the last one told.
	want := "2 tool calls\nmcp__everything__simulate-research-query\nmcp__everything__echo"
	if len(summaries) == 0 || summaries[len(summaries)-1] != want {
		t.Errorf("live summaries %q: want the last to be, without a task line:\n%s", summaries, want)
	}
}

// A script whose budget runs out while a task runs (what exec --timeout
// does) cancels the task on its server before the run ends and the
// connection closes; the server says the task is cancelled.
func TestAnAbortedScriptCancelsItsTask(t *testing.T) {
	var logs syncBuffer
	logger := zerolog.New(&logs).Level(zerolog.DebugLevel)
	sys := startServers(t, mcpexec.Options{Logger: &logger, Limits: sandbox.Limits{Timeout: 1500 * time.Millisecond}}, everything(t))
	res := run(sys, `return await `+research+`({topic: "slow things"});`)
	if res.OK {
		t.Fatalf("a script past its budget succeeded: %q", res.Text)
	}
	if err := sys.Close(); err != nil {
		t.Fatal(err)
	}
	text := logs.String()
	if !strings.Contains(text, `"status":"cancelled"`) || !strings.Contains(text, "cancelled the task of a call that ended") {
		t.Errorf("the server did not confirm the task cancelled; log:\n%s", text)
	}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
