package sandbox

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestFramesRoundTrip encodes every frame type and decodes it back.
func TestFramesRoundTrip(t *testing.T) {
	limits := Limits{Timeout: time.Second, MaxCalls: 7}
	frames := []frame{
		{Type: frameReady},
		{Type: frameStart, Code: "return 1", Tools: []string{"mcp__a__b"}, Down: map[string]string{"c": "still starting"}, Limits: &limits, BusyWait: true},
		{Type: frameCall, ID: 1 << 40, Kind: callKindTool, Name: "mcp__a__b", Args: json.RawMessage(`{"i":1,"s":"é"}`)},
		{Type: frameCall, ID: 2, Kind: callKindSearch, Name: SearchCallName, Args: json.RawMessage(`{}`)},
		{Type: frameCalled, Name: "mcp__a__b"},
		{Type: frameResult, ID: 3, Value: json.RawMessage(`{"ok":true}`), Images: 2},
		{Type: frameResult, ID: 4},
		{Type: frameResult, ID: 5, Error: "Tool failed: no such file"},
		{Type: frameResult, ID: 6, Value: json.RawMessage(`[1]`), BusyWait: true},
		{Type: frameResult, ID: 7, Error: "Tool failed", BusyWait: true},
		{Type: frameLog, Text: "line one\nline two"},
		{Type: frameLog},
		{Type: framePause},
		{Type: frameResume},
		{Type: frameClock, Stopped: true},
		{Type: frameClock},
		{Type: frameDone, Result: &Result{OK: true, Text: "2", Calls: []string{"mcp__a__b"}}, Abandoned: true},
	}
	var pipe bytes.Buffer
	c := newConn(&pipe, &pipe)
	for _, f := range frames {
		if err := c.send(f); err != nil {
			t.Fatalf("send %c: %v", f.Type, err)
		}
	}
	for _, want := range frames {
		got, err := c.receive()
		if err != nil {
			t.Fatalf("receive %c: %v", want.Type, err)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b json.RawMessage) bool { return bytes.Equal(a, b) })); diff != "" {
			t.Errorf("frame %c changed on the way (-sent +received):\n%s", want.Type, diff)
		}
	}
}

// TestHostRejectsMalformedFrames feeds the decoder what a compromised
// worker could write: every body must be refused as an error, never read
// past its end, and never taken for a frame it is not.
func TestHostRejectsMalformedFrames(t *testing.T) {
	call := func(parts ...[]byte) []byte { return append([]byte{byte(frameCall)}, bytes.Join(parts, nil)...) }
	uv := func(v uint64) []byte { return binary.AppendUvarint(nil, v) }
	bodies := map[string][]byte{
		"empty body":                    {},
		"unknown type":                  []byte("Zgarbage"),
		"ready with trailing bytes":     []byte("Rx"),
		"call cut in its id":            call([]byte{0x80}),
		"call without a kind":           call(uv(1)),
		"call of an unknown kind":       call(uv(1), []byte{'x'}, uv(1), []byte("a{}")),
		"call name longer than body":    call(uv(1), []byte{wireKinds[callKindTool]}, uv(1000), []byte("mcp__a")),
		"call name length overflowing":  call(uv(1), []byte{wireKinds[callKindTool]}, uv(1<<63), []byte("mcp__a")),
		"call name not UTF-8":           call(uv(1), []byte{wireKinds[callKindTool]}, uv(2), []byte{0xff, 0xfe}, []byte("{}")),
		"call arguments not JSON":       call(uv(1), []byte{wireKinds[callKindTool]}, uv(1), []byte("a{"), []byte("not json")),
		"call without arguments":        call(uv(1), []byte{wireKinds[callKindTool]}, uv(1), []byte("a")),
		"call arguments with trailer":   call(uv(1), []byte{wireKinds[callKindTool]}, uv(1), []byte(`a{} {}`)),
		"called name not UTF-8":         {byte(frameCalled), 0xc3},
		"clock of another value":        {byte(frameClock), 7},
		"clock without its byte":        {byte(frameClock)},
		"clock with trailing bytes":     {byte(frameClock), 1, 1},
		"result with an unknown status": append(append([]byte{byte(frameResult)}, uv(1)...), 0, 9),
		"result with an unknown bit":    append(append([]byte{byte(frameResult)}, uv(1)...), 0, 4),
		"result with a huge image count": append(append(append([]byte{byte(frameResult)}, uv(1)...),
			uv(1<<62)...), 0),
		"result error without text": append(append([]byte{byte(frameResult)}, uv(1)...), 0, 1),
		"done not JSON":             []byte("D{"),
		"done of the wrong shape":   []byte(`D{"result":"ok"}`),
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			if f, err := decodeFrame(body); err == nil {
				t.Errorf("accepted as %+v", f)
			}
		})
	}
}

// TestOversizedFrameIsRefusedBothWays: a writer never sends a frame past the
// size bound, and a reader never allocates for a length past it.
func TestOversizedFrameIsRefusedBothWays(t *testing.T) {
	var pipe bytes.Buffer
	c := newConn(&pipe, &pipe)
	big := json.RawMessage(`"` + strings.Repeat("x", maxFrameSize) + `"`)
	if err := c.send(frame{Type: frameResult, ID: 1, Value: big}); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("send of an oversized frame: %v", err)
	}
	if pipe.Len() != 0 {
		t.Errorf("%d bytes of an oversized frame were written", pipe.Len())
	}
	pipe.Write([]byte{0xff, 0xff, 0xff, 0xff})
	if _, err := c.receive(); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("receive of an oversized length: %v", err)
	}
}

// FuzzDecodeFrame: no body makes the decoder panic, and whatever it accepts
// encodes back to a body it decodes the same way.
func FuzzDecodeFrame(f *testing.F) {
	for _, seed := range [][]byte{
		[]byte("R"), []byte("P"), []byte("K\x01"), []byte("Lhello"), []byte("Nmcp__a__b"),
		append([]byte("C\x01t\x09mcp__a__b"), `{"i":1}`...), []byte("V\x01\x00{}"), []byte("V\x02\x01\x00boom"),
		[]byte(`D{"result":{"ok":true}}`), []byte(`S{"code":"return 1"}`),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fr, err := decodeFrame(body)
		if err != nil {
			return
		}
		again, err := appendFrame(nil, fr)
		if err != nil {
			t.Fatalf("decoded %+v does not encode: %v", fr, err)
		}
		back, err := decodeFrame(again)
		if err != nil {
			t.Fatalf("re-encoded %q does not decode: %v", again, err)
		}
		if back.Type != fr.Type || back.ID != fr.ID || back.Name != fr.Name || back.Text != fr.Text || back.Error != fr.Error {
			t.Fatalf("%+v became %+v", fr, back)
		}
	})
}
