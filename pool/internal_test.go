package pool

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestBackoffDoublesUpToTheCap(t *testing.T) {
	base, max := 100*time.Millisecond, time.Second
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i, w := range want {
		if got := Backoff(i, base, max); got != w*time.Millisecond {
			t.Errorf("attempt %d: %v, want %v", i, got, w*time.Millisecond)
		}
	}
	if got := Backoff(1000, base, max); got != max {
		t.Errorf("attempt 1000: %v (overflow?)", got)
	}
	if got := Backoff(3, 0, max); got != 0 {
		t.Errorf("zero base: %v", got)
	}
}

func TestMergeEnvConfiguredWins(t *testing.T) {
	got := mergeEnv([]string{"PATH=/bin", "HOME=/root", "A=old", "NOEQ"}, map[string]string{"A": "new", "B": "2"})
	want := []string{"PATH=/bin", "HOME=/root", "NOEQ", "A=new", "B=2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestRawToolsKeepsEntriesAsListed(t *testing.T) {
	page := []byte(`{"tools":[{"name":"b","inputSchema":{"z":1,"a":2}},{"name":"a","description":"d","outputSchema":{"type":"object"}},{"name":"b"},5],"nextCursor":"x"}`)
	got, err := rawTools(page)
	if err != nil {
		t.Fatal(err)
	}
	if string(got["b"].InputSchema) != `{"z":1,"a":2}` || got["a"].Description != "d" || string(got["a"].OutputSchema) != `{"type":"object"}` || len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	if _, err := rawTools([]byte(`{"tools":5}`)); err == nil {
		t.Fatal("malformed page accepted")
	}
}

func TestJSONLinesDropsWhatCannotBeJSONRPC(t *testing.T) {
	long := `{"k":"` + strings.Repeat("x", 100) + `"}`
	cases := []struct {
		in, out string
		noise   []string
	}{
		{"", "", nil},
		{`{"a":1}` + "\n", `{"a":1}` + "\n", nil},
		{"No X display available\n" + `{"a":1}` + "\n", `{"a":1}` + "\n", []string{"No X display available"}},
		{"banner\r\n[1]\r\n\n  {\"b\":2}\nbye", "[1]\r\n\n  {\"b\":2}\n", []string{"banner", "bye"}},
		{long + "\n" + strings.Repeat("n", 300) + "\n" + long, long + "\n" + long, []string{strings.Repeat("n", noiseShown)}},
	}
	for _, c := range cases {
		var noise []string
		// A tiny buffer so lines arrive in several chunks.
		f := newJSONLinesSize(strings.NewReader(c.in), 16, 1<<20, func(l string) { noise = append(noise, l) }, func(int64, bool) { t.Error("over the limit") })
		got, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.out {
			t.Errorf("%q: got %q, want %q", c.in, got, c.out)
		}
		if diff := cmp.Diff(c.noise, noise); diff != "" {
			t.Errorf("%q noise (-want +got):\n%s", c.in, diff)
		}
	}
}

func TestWireTapKeepsOnlyTheLatestListing(t *testing.T) {
	tap := newWireTap()
	for i, cursor := range []string{"", "c1", "c2"} {
		tap.pages[cursor] = []byte{byte(i)}
	}
	tap.retain([]string{"", "c2"})
	if _, ok := tap.page("c1"); ok || len(tap.pages) != 2 {
		t.Fatalf("pages = %v", tap.pages)
	}
}

func TestServerErrorSkipsTheTransportSentinel(t *testing.T) {
	sentinel := &jsonrpc.Error{Code: codeRejectedByTransport, Message: "rejected by transport"}
	real := &jsonrpc.Error{Code: -32602, Message: "unknown tool"}
	cases := []struct {
		err  error
		want *jsonrpc.Error
	}{
		{nil, nil},
		{errors.New("plain"), nil},
		{real, real},
		{fmt.Errorf("calling %q: %w", "tools/call", real), real},
		{sentinel, nil},
		{fmt.Errorf("POST: %w: %w", sentinel, errors.New("503 Service Unavailable")), nil},
		{fmt.Errorf("POST: %w: %w", sentinel, real), real},
		{fmt.Errorf("outer: %w", fmt.Errorf("POST: %w: %w", sentinel, real)), real},
	}
	for _, c := range cases {
		if got := serverError(c.err); got != c.want {
			t.Errorf("%v: got %v, want %v", c.err, got, c.want)
		}
	}
}

func TestIDScannerFindsTheTopLevelIDWhereverItIs(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":7,"result":{"id":"inner"}}`, `7`},
		{`{"result":{"content":[{"id":1,"text":"a \"id\": 9, }"}]},"jsonrpc":"2.0","id":"req-3"}`, `"req-3"`},
		{`{ "id" : 12 , "result":{}}`, `12`},
		{`{"method":"notifications/message","params":{"id":4}}`, ``},
		{`{"id":null,"error":{}}`, ``},
	}
	for _, c := range cases {
		for _, split := range []int{1, 3, len(c.in)} { // fed in pieces of any size
			var s idScanner
			for i := 0; i < len(c.in); i += split {
				s.feed([]byte(c.in[i:min(i+split, len(c.in))]))
			}
			got, ok := s.value()
			if string(got) != c.want || ok != (c.want != "") {
				t.Errorf("%s (pieces of %d): %s, %v; want %s", c.in, split, got, ok, c.want)
			}
		}
	}
}

func TestJSONLinesAnswersALineOverTheLimitAndGoesOn(t *testing.T) {
	big := `{"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 200) + `"}]},"jsonrpc":"2.0","id":5}`
	in := `{"jsonrpc":"2.0","id":4,"result":{}}` + "\n" + big + "\n" + `{"jsonrpc":"2.0","id":6,"result":{}}` + "\n"
	var over []int64
	f := newJSONLinesSize(strings.NewReader(in), 16, 100, func(string) {}, func(size int64, answered bool) {
		if !answered {
			t.Error("the oversized reply was not answered")
		}
		over = append(over, size)
	})
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":4,"result":{}}` + "\n" +
		`{"error":{"code":-32097,"message":"` + byteSize(int64(len(big)+1)) + `"},"id":5,"jsonrpc":"2.0"}` + "\n" +
		`{"jsonrpc":"2.0","id":6,"result":{}}` + "\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(over) != 1 || over[0] != int64(len(big)+1) {
		t.Errorf("over = %v", over)
	}
}
