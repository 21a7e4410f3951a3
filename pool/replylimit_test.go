package pool

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readLimited reads body through an sseLimiter of limit bytes, in one go
// and a byte at a time: both must give the same stream.
func readLimited(t *testing.T, body string, limit int64) string {
	t.Helper()
	whole, err := io.ReadAll(&sseLimiter{src: io.NopCloser(strings.NewReader(body)), limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	bytewise, err := io.ReadAll(&sseLimiter{src: io.NopCloser(iotest.OneByteReader(strings.NewReader(body))), limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	if string(whole) != string(bytewise) {
		t.Errorf("read whole:\n%q\nread a byte at a time:\n%q", whole, bytewise)
	}
	return string(whole)
}

// Events within the limit pass byte for byte, whatever their line ends,
// comments, ids and retry fields.
func TestSSELimiterPassesEventsWithinTheLimit(t *testing.T) {
	stream := ": a comment\n\n" +
		"id: 1\nretry: 500\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n" +
		"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"notifications/progress\"}\r\n\r\n" +
		"id: 2\rdata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\r\r" +
		"id: 3\n\n" +
		"data: {\"partial\":"
	if got := readLimited(t, stream, 100); got != stream {
		t.Errorf("got\n%q\nwant the stream unchanged\n%q", got, stream)
	}
}

// An event over the limit is replaced by the error answering its request
// id, under its own event id, wherever the id comes in the message; the
// events around it pass. One without a request id (a notification) leaves
// only its event id.
func TestSSELimiterReplacesAnEventOverTheLimit(t *testing.T) {
	text := strings.Repeat("x", 300)
	goSDK := `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + text + `"}]}}`
	tsSDK := `{"result":{"content":[{"type":"text","text":"` + text + `"}]},"jsonrpc":"2.0","id":"call-8"}`
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + text + `"}}`
	small := "id: 10\ndata: {\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}\n\n"
	first := "id: 11\ndata: " + goSDK + "\n\n"
	second := "data: " + tsSDK[:100] + "\r\ndata: " + tsSDK[100:] + "\r\nid: 12\r\n\r\n"
	third := "id: 13\ndata: " + note + "\n\n"
	got := readLimited(t, small+first+second+third+small, 200)
	want := small +
		"id: 11\ndata: " + strings.TrimSpace(string(tooLarge([]byte("7"), int64(len(first))))) + "\n\n" +
		"id: 12\ndata: " + strings.TrimSpace(string(tooLarge([]byte(`"call-8"`), int64(len(second))))) + "\n\n" +
		"id: 13\n\n" +
		small
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A JSON body within the limit passes; one over it becomes the error
// answering its id.
func TestJSONLimiterAnswersABodyOverTheLimit(t *testing.T) {
	small := `{"jsonrpc":"2.0","id":3,"result":{}}`
	big := `{"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 300) + `"}]},"jsonrpc":"2.0","id":4}`
	for body, want := range map[string]string{
		small: small,
		big:   string(tooLarge([]byte("4"), int64(len(big)))),
	} {
		got, err := io.ReadAll(&jsonLimiter{src: io.NopCloser(iotest.HalfReader(strings.NewReader(body))), limit: 100})
		if err != nil || string(got) != want {
			t.Errorf("got %q, %v; want %q", got, err, want)
		}
	}
}

// BenchmarkSSELimiter reads a 16 MB event through the limiter, beside the
// same stream read plainly: the limiter looks at every byte.
func BenchmarkSSELimiter(b *testing.B) {
	event := "id: 1\ndata: " + `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 16<<20) + `"}]}}` + "\n\n"
	for _, limited := range []bool{false, true} {
		name := "plain"
		if limited {
			name = "limited"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(event)))
			for b.Loop() {
				var r io.Reader = struct{ io.Reader }{strings.NewReader(event)} // read as a body is, a chunk at a time
				if limited {
					r = &sseLimiter{src: io.NopCloser(r), limit: DefaultMaxReplyBytes}
				}
				if _, err := io.Copy(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
