package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves the built-in server name over in-memory transports and
// returns a client session to it, closed at the end of the test.
func connect(t *testing.T, name string) *mcp.ClientSession {
	t.Helper()
	server := builtinServers[name]()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	return tools
}

func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

func TestBuiltinServersGiveInstructions(t *testing.T) {
	for _, name := range builtinServerNames() {
		cs := connect(t, name)
		if got := cs.InitializeResult().Instructions; strings.TrimSpace(got) == "" {
			t.Errorf("server %s: no instructions", name)
		}
	}
}

func TestORCH1_SrvFetchReturnsStructuredContentItDeclares(t *testing.T) {
	cs := connect(t, "srv")
	tools := listTools(t, cs)
	for _, name := range []string{"fetch", "store"} {
		if tools[name] == nil || tools[name].OutputSchema == nil {
			t.Fatalf("srv.%s: missing, or declares no outputSchema: %+v", name, tools[name])
		}
	}
	res := call(t, cs, "fetch", map[string]any{"id": 1})
	if res.IsError {
		t.Fatalf("fetch failed: %v", texts(res))
	}
	var got record
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("structuredContent %s: %v", raw, err)
	}
	if diff := cmp.Diff(records[0], got); diff != "" {
		t.Errorf("fetch({id:1}) (-want +got):\n%s", diff)
	}

	// store hands back what it was given, so a script can prove the first
	// call's value reached the second call.
	res = call(t, cs, "store", map[string]any{"value": res.StructuredContent})
	raw, _ = json.Marshal(res.StructuredContent)
	var stored struct {
		Key    string `json:"key"`
		Stored record `json:"stored"`
	}
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatalf("store reply %s: %v", raw, err)
	}
	if stored.Key == "" || stored.Stored.Title != records[0].Title {
		t.Errorf("store reply = %s, want a key and the stored record", raw)
	}
}

func TestSrvFetchOfUnknownIDIsAToolError(t *testing.T) {
	cs := connect(t, "srv")
	res := call(t, cs, "fetch", map[string]any{"id": 99})
	if !res.IsError || res.StructuredContent != nil {
		t.Fatalf("fetch({id:99}) = %+v, want an isError result without structured content", res)
	}
	if got := texts(res); len(got) != 1 || !strings.Contains(got[0], "99") {
		t.Errorf("error text = %q, want it to name the id", got)
	}
}

func TestSrvListFiltersByTag(t *testing.T) {
	cs := connect(t, "srv")
	raw, _ := json.Marshal(call(t, cs, "list", map[string]any{"tag": "draft"}).StructuredContent)
	if want := `{"records":[{"id":5,"title":"Roadmap draft"}]}`; string(raw) != want {
		t.Errorf("list({tag:draft}) = %s, want %s", raw, want)
	}
	raw, _ = json.Marshal(call(t, cs, "list", map[string]any{}).StructuredContent)
	var all listReply
	if err := json.Unmarshal(raw, &all); err != nil || len(all.Records) != len(records) {
		t.Errorf("list({}) = %s, want all %d records", raw, len(records))
	}
}

// The text server's tools each show one reply shape (ORCH-2, EDGE-20).
func TestORCH2_TextServerReplyShapes(t *testing.T) {
	cs := connect(t, "text")
	tools := listTools(t, cs)
	for _, name := range []string{"echo", "nothing", "image", "fail", "sleep", "hang"} {
		tool := tools[name]
		if tool == nil {
			t.Fatalf("text.%s missing", name)
		}
		if tool.OutputSchema != nil {
			t.Errorf("text.%s declares an outputSchema; the text server's tools must not", name)
		}
	}

	echo := call(t, cs, "echo", map[string]any{"text": "hello"})
	if got := texts(echo); echo.StructuredContent != nil || len(echo.Content) != 1 || len(got) != 1 || got[0] != "hello" {
		t.Errorf("echo = %+v, want the single text part hello and nothing else", echo)
	}

	nothing := call(t, cs, "nothing", map[string]any{})
	if len(nothing.Content) != 0 || nothing.StructuredContent != nil || nothing.IsError {
		t.Errorf("nothing = %+v, want no content at all", nothing)
	}

	image := call(t, cs, "image", map[string]any{})
	if len(image.Content) != 1 || image.StructuredContent != nil {
		t.Fatalf("image = %+v, want exactly one content part", image)
	}
	img, ok := image.Content[0].(*mcp.ImageContent)
	if !ok || img.MIMEType != "image/png" || !strings.HasPrefix(string(img.Data), "\x89PNG") {
		t.Errorf("image content = %#v, want one PNG", image.Content[0])
	}

	fail := call(t, cs, "fail", map[string]any{"message": "quota exceeded"})
	if got := texts(fail); !fail.IsError || len(got) != 1 || got[0] != "quota exceeded" {
		t.Errorf("fail = %+v, want isError with the message", fail)
	}

	sleep := call(t, cs, "sleep", map[string]any{"ms": 1})
	if got := texts(sleep); len(got) != 1 || got[0] != "slept 1 ms" {
		t.Errorf("sleep = %q", got)
	}
}

func TestTextHangAnswersOnlyWhenCancelled(t *testing.T) {
	cs := connect(t, "text")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hang", Arguments: map[string]any{}})
		done <- err
	}()
	// A call made after hang was sent is answered while hang is pending:
	// the server is alive and hang is simply not answering.
	if got := texts(call(t, cs, "echo", map[string]any{"text": "still here"})); len(got) != 1 || got[0] != "still here" {
		t.Fatalf("echo while hang pending = %q", got)
	}
	select {
	case err := <-done:
		t.Fatalf("hang answered before it was cancelled: %v", err)
	default:
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled hang returned %v, want context.Canceled", err)
	}
}

func TestWeatherForecastIsDeterministic(t *testing.T) {
	cs := connect(t, "weather")
	a, _ := json.Marshal(call(t, cs, "forecast", map[string]any{"city": "Lisbon", "days": 2}).StructuredContent)
	b, _ := json.Marshal(call(t, cs, "forecast", map[string]any{"city": "Lisbon", "days": 2}).StructuredContent)
	if string(a) != string(b) {
		t.Errorf("two forecasts for one city differ:\n%s\n%s", a, b)
	}
	var f forecast
	if err := json.Unmarshal(a, &f); err != nil || f.City != "Lisbon" || len(f.Days) != 2 {
		t.Errorf("forecast = %s, want Lisbon for 2 days", a)
	}
	for _, d := range f.Days {
		if d.LowC > d.HighC {
			t.Errorf("day %d: low %d above high %d", d.Day, d.LowC, d.HighC)
		}
	}
	if f := makeForecast("x", 100); len(f.Days) != maxForecastDays {
		t.Errorf("100 days gave %d, want the cap %d", len(f.Days), maxForecastDays)
	}
}

func TestServeBuiltinRefusesWhileOfflineFileExists(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "offline")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := serveBuiltin(context.Background(), "weather", gate)
	if !errors.Is(err, errOffline) {
		t.Errorf("serveBuiltin with the offline file present = %v, want errOffline", err)
	}
}

func TestServeBuiltinRejectsUnknownName(t *testing.T) {
	err := serveBuiltin(context.Background(), "nope", "")
	if err == nil || !strings.Contains(err.Error(), "srv, text, weather") {
		t.Errorf("unknown server = %v, want an error listing the built-in names", err)
	}
}

func TestDefaultServersRunThisBinary(t *testing.T) {
	servers, err := defaultServers("/path/to/demo")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range servers {
		names = append(names, s.Name)
		if s.Err != nil || s.Command != "/path/to/demo" || len(s.Args) != 2 || s.Args[0] != "serve-mcp" || s.Args[1] != s.Name {
			t.Errorf("server %+v: want command /path/to/demo serve-mcp %s", s, s.Name)
		}
	}
	if diff := cmp.Diff(builtinServerNames(), names); diff != "" {
		t.Errorf("default pool names (-built-in +default):\n%s", diff)
	}
}
