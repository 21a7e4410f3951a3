package pool_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpexec/mcpexec/elicit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// answering is an Elicitor that records the questions and answers with
// answer.
func answering(answer elicit.Response, asked *[]elicit.Request) elicit.Elicitor {
	return elicit.Func(func(_ context.Context, r elicit.Request) (elicit.Response, error) {
		*asked = append(*asked, r)
		return answer, nil
	})
}

// A server's question reaches the Elicitor with the server, the call and the
// form; the person's answer goes back with the schema's defaults filled in
// for the fields they left out.
func TestElicitationReachesThePersonAndDefaultsFillTheGaps(t *testing.T) {
	var asked []elicit.Request
	m := start(t, []pool.ServerConfig{contentServer("c")}, pool.Options{
		Elicitor: answering(elicit.Response{Action: elicit.Accept, Content: map[string]any{"name": "Ada", "count": 7}}, &asked),
	})
	res, err := m.Call(context.Background(), "mcp__c__ask", raw(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.JSON), `{"action":"accept","content":{"color":"green","count":7,"name":"Ada","notify":true}}`; got != want {
		t.Errorf("the server received %s, want %s", got, want)
	}
	if len(asked) != 1 {
		t.Fatalf("asked %d times", len(asked))
	}
	q := asked[0]
	if q.Server != "c" || q.Mode != "form" || q.Message != "Who is asking?" || strings.Join(q.Tools, ",") != "mcp__c__ask" {
		t.Errorf("question = %+v", q)
	}
	// The schema as the server wrote it, key order and all.
	if compact(t, q.Schema) != compact(t, testservers.ElicitSchema) {
		t.Errorf("schema = %s", q.Schema)
	}
}

// With no one to answer, the question is declined (and the server says so);
// the call itself goes on.
func TestElicitationDeclinedWhenNoOneCanAnswer(t *testing.T) {
	m := start(t, []pool.ServerConfig{contentServer("c")}, pool.Options{Elicitor: elicit.Unattended("no one is here")})
	res, err := m.Call(context.Background(), "mcp__c__ask", raw(`{}`))
	if err != nil || string(res.JSON) != `{"action":"decline"}` {
		t.Fatalf("res = %s, %v", res.JSON, err)
	}
}

// A question is cancelled when the call waiting for it ends: the person's
// prompt sees its context end, and the call fails as cancelled.
func TestElicitationCancelledWhenTheCallEnds(t *testing.T) {
	prompted := make(chan struct{})
	withdrawn := make(chan error, 1)
	m := start(t, []pool.ServerConfig{contentServer("c")}, pool.Options{
		Elicitor: elicit.Func(func(ctx context.Context, _ elicit.Request) (elicit.Response, error) {
			close(prompted)
			<-ctx.Done()
			withdrawn <- ctx.Err()
			return elicit.Response{}, ctx.Err()
		}),
	})
	ctx, cancel := context.WithCancel(context.Background())
	failed := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, "mcp__c__ask", raw(`{}`))
		failed <- err
	}()
	select {
	case <-prompted:
	case err := <-failed:
		t.Fatalf("the call ended before asking: %v", err)
	case <-time.After(patience):
		t.Fatal("the person was never asked")
	}
	cancel()
	select {
	case err := <-withdrawn:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the prompt's context ended with %v", err)
		}
	case <-time.After(patience):
		t.Fatal("the question was not withdrawn when the call ended")
	}
	var ce *pool.CallError
	if err := <-failed; !errors.As(err, &ce) || ce.Kind != pool.KindCancelled {
		t.Errorf("call err = %v, want cancelled", err)
	}
	// The connection is fine afterwards.
	if _, err := m.Call(context.Background(), "mcp__c__link", raw(`{}`)); err != nil {
		t.Errorf("after the cancelled question: %v", err)
	}
}

// The real server-everything's form: accepted with only the required
// field, every default of its schema reaches the server.
func TestEverythingElicitationGetsTheSchemaDefaults(t *testing.T) {
	var asked []elicit.Request
	m := start(t, []pool.ServerConfig{everythingServer(t)}, pool.Options{
		Elicitor: answering(elicit.Response{Action: elicit.Accept, Content: map[string]any{"name": "Ada"}}, &asked),
	})
	res, err := m.Call(context.Background(), "mcp__everything__trigger-elicitation-request", raw(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := res.Value.(string)
	for _, want := range []string{"- Name: Ada", "It was a dark and stormy night.", "- Favorite Integer: 42", "- Favorite Number: 3.14"} {
		if !strings.Contains(text, want) {
			t.Errorf("reply lacks %q:\n%s", want, text)
		}
	}
	// The form's fields come in the server's order, with their defaults.
	fields, err := elicit.Fields(asked[0].Schema)
	if err != nil || len(fields) < 4 {
		t.Fatalf("fields = %+v, %v", fields, err)
	}
	var order []string
	for _, f := range fields[:4] {
		order = append(order, f.Name)
	}
	if strings.Join(order, ",") != "name,check,firstLine,email" || !fields[0].Required || fields[2].Default != "It was a dark and stormy night." {
		t.Errorf("fields = %+v", fields[:4])
	}
}

// A question goes to the Elicitor its call was made under, when it has one:
// a gateway asks the client whose request made the call, a run that parks
// holds it.
func TestElicitationGoesToTheCallsElicitor(t *testing.T) {
	var fallback, routed []elicit.Request
	m := start(t, []pool.ServerConfig{contentServer("c")}, pool.Options{
		Elicitor: answering(elicit.Response{Action: elicit.Decline}, &fallback),
	})
	ctx := elicit.WithElicitor(context.Background(),
		answering(elicit.Response{Action: elicit.Accept, Content: map[string]any{"name": "Ada", "count": 1}}, &routed))
	res, err := m.Call(ctx, "mcp__c__ask", raw(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(fallback) != 0 || len(routed) != 1 {
		t.Fatalf("the pool's Elicitor was asked %d times, the call's %d; want 0 and 1", len(fallback), len(routed))
	}
	if !strings.Contains(string(res.JSON), `"name":"Ada"`) {
		t.Errorf("the server received %s, want the call's Elicitor's answer", res.JSON)
	}
	// Without one, the pool's own answers.
	if res, err := m.Call(context.Background(), "mcp__c__ask", raw(`{}`)); err != nil || string(res.JSON) != `{"action":"decline"}` {
		t.Errorf("res = %s, %v", res.JSON, err)
	}
}
