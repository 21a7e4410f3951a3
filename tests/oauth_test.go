package tests

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/internal/testkit"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/oauth"
	"github.com/mcpexec/mcpexec/pool"
)

// A server behind OAuth as the model meets it: while the person has not yet
// authorized it, a script calling it learns that it is not connected for
// want of authorization, and the other servers answer; once authorized its
// tools are in the catalog and answer Exec and flat calls. No token reaches
// the catalog, a result, a server status or the log.
func TestOAuthServerThroughTheFacade(t *testing.T) {
	ctx := context.Background()
	as := testservers.NewOAuthServer(testservers.Behaviour(testservers.BehaviourOptions{}), testservers.OAuthOptions{})
	defer as.Close()
	asked := make(chan oauth.Request, 4)
	person, err := oauth.NewLoopback("", func(_ context.Context, req oauth.Request) error {
		asked <- req
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer person.Close()
	logs := &testkit.SyncBuffer{}
	logger := zerolog.New(logs).Level(zerolog.TraceLevel)
	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		Servers:    append(builtinServers("text"), pool.ServerConfig{Name: "secure", URL: as.URL}),
		Prompter:   &questions{},
		Authorizer: person,
		OAuthStore: oauth.FileStore{Dir: t.TempDir()},
		Workers:    mcpexecWorkers(),
		Logger:     &logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	if err := sys.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	var req oauth.Request
	select {
	case req = <-asked:
	case <-time.After(time.Minute):
		t.Fatal("the person was never asked to authorize")
	}
	var seen []string // everything a model or a log reader gets to read
	exec := func(code string) mcpexec.ExecResult {
		args, _ := json.Marshal(map[string]string{"code": code})
		res := sys.Exec(ctx, args, nil)
		seen = append(seen, res.Text, res.Summary)
		return res
	}

	res := exec(`const a = await tools.mcp__text__echo({text: "hi"});
let b = "answered";
try { await tools["mcp__secure__echo"]({}); } catch (e) { b = e.message; }
return {a, b};`)
	if !res.OK || !strings.Contains(res.Text, `"a":"hi"`) ||
		!strings.Contains(res.Text, `its server \"secure\" is not connected: authorization required`) {
		t.Fatalf("while authorization is pending: %+v", res)
	}

	if err := testservers.FollowAuthorization(ctx, req.URL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for !connected(sys, "secure") {
		if time.Now().After(deadline) {
			t.Fatalf("never connected after authorization: %+v", sys.Servers())
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, msgs, err := sys.Prepare(broadcast.NewHistory(), mcpexec.DeclareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	catalog := ""
	for _, m := range msgs {
		catalog += m.Text
	}
	if !strings.Contains(catalog, "mcp__secure__echo") {
		t.Errorf("the catalog does not list the authorized server:\n%s", catalog)
	}
	seen = append(seen, catalog)
	if res := exec(`return await tools.mcp__secure__echo({n: 1});`); !res.OK || res.Text != `{"n":1}` {
		t.Errorf("Exec after authorization: %+v", res)
	}
	flat := sys.CallFlat(ctx, "mcp__secure__echo", json.RawMessage(`{"n":2}`))
	if !flat.OK {
		t.Errorf("flat call after authorization: %+v", flat)
	}
	seen = append(seen, flat.Text)
	for _, st := range sys.Servers() {
		seen = append(seen, st.Why())
	}
	seen = append(seen, logs.String())
	all := strings.Join(seen, "\n")
	for _, tok := range as.Issued() {
		if strings.Contains(all, tok) {
			t.Fatalf("token %s reached model-visible text or the log:\n%s", tok, all)
		}
	}
	if len(as.Issued()) == 0 {
		t.Fatal("no token was issued: the test proves nothing")
	}
}

func connected(sys *mcpexec.System, name string) bool {
	for _, st := range sys.Servers() {
		if st.Name == name && st.State == pool.StateConnected {
			return true
		}
	}
	return false
}
