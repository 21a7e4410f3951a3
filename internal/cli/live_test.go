package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a buffer the live line's clock and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestCutToColumnsCountsWideRunesTwice(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"mcp__a__x", 20, "mcp__a__x"},
		{"mcp__a__x", 9, "mcp__a__x"},
		{"mcp__a__x", 6, "mcp__…"},
		{"日本語のツール", 8, "日本語…"},
		{"e\u0301te\u0301", 3, "e\u0301te\u0301"}, // combining accents take no column
		{"abc", 0, ""},
	} {
		got := cutToColumns(c.in, c.n)
		if got != c.want {
			t.Errorf("cutToColumns(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if columns(got) > c.n {
			t.Errorf("cutToColumns(%q, %d) takes %d columns", c.in, c.n, columns(got))
		}
	}
}

// Each drawing of the status line fits the terminal's width, leaving the
// last column free, and keeps the clock.
func TestLiveLineIsCutToTheTerminalWidth(t *testing.T) {
	var out syncBuffer
	l := newLiveLine(&out, style{}, func() int { return 40 })
	l.begin()
	l.progress("3 tool calls\nmcp__filesystem__read_text_file\nmcp__filesystem__list_directory")
	l.end()
	for _, draw := range strings.Split(out.String(), eraseLine) {
		if draw == "" {
			continue
		}
		if columns(draw) > 39 {
			t.Errorf("draw of %d columns on a 40-column terminal: %q", columns(draw), draw)
		}
		if !strings.HasSuffix(draw, "s") || !strings.Contains(draw, " · ") {
			t.Errorf("draw without its clock: %q", draw)
		}
	}
	if !strings.Contains(out.String(), "3 tool calls: mcp__filesystem… · ") {
		t.Errorf("the summary was not cut where it stops fitting: %q", out.String())
	}
}

// A log line written while the status line shows erases it first, so the
// two never share a row, and the status line is drawn again below.
func TestLogLinesClearTheLiveLineFirst(t *testing.T) {
	var out syncBuffer
	l := newLiveLine(&out, style{}, func() int { return 80 })
	l.begin()
	before := len(out.String())
	if _, err := l.Write([]byte("WRN mcp server unavailable server=x\n")); err != nil {
		t.Fatal(err)
	}
	l.end()
	after := out.String()[before:]
	if !strings.HasPrefix(after, eraseLine+"WRN mcp server unavailable server=x\n"+eraseLine+liveMark) {
		t.Errorf("a log line while the status shows: %q, want erase, the line, then the status again", after)
	}
	// Once the run has ended, writes pass straight through.
	out.b.Reset()
	_, _ = l.Write([]byte("done\n"))
	if out.String() != "done\n" {
		t.Errorf("after the run: %q", out.String())
	}
}
