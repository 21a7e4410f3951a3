package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpexec/mcpexec/permissions"
)

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		line string
		want permissions.Answer
		ok   bool
	}{
		{"y", permissions.Answer{Kind: permissions.AllowOnce}, true},
		{" YES ", permissions.Answer{Kind: permissions.AllowOnce}, true},
		{"a", permissions.Answer{Kind: permissions.AllowAlways}, true},
		{"always", permissions.Answer{Kind: permissions.AllowAlways}, true},
		{"n", permissions.Answer{Kind: permissions.Reject}, true},
		{"no: not on Fridays", permissions.Answer{Kind: permissions.Reject, Reason: "not on Fridays"}, true},
		{"n, keep it", permissions.Answer{Kind: permissions.Reject, Reason: "keep it"}, true},
		{"", permissions.Answer{}, false},
		{"maybe", permissions.Answer{}, false},
	}
	for _, tt := range tests {
		got, ok := parseAnswer(tt.line)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseAnswer(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLinePrompterAsksAgainUntilItUnderstands(t *testing.T) {
	var out bytes.Buffer
	p := newLinePrompter(strings.NewReader("what?\nn: too risky\n"), &out, style{})
	a, err := p.Ask(context.Background(), permissions.Question{Tool: "mcp__srv__delete", Args: json.RawMessage(`{"id": 3}`)})
	if err != nil {
		t.Fatal(err)
	}
	if a != (permissions.Answer{Kind: permissions.Reject, Reason: "too risky"}) {
		t.Errorf("answer = %+v", a)
	}
	if got := out.String(); strings.Count(got, "[y] yes once") != 2 || !strings.Contains(got, `Allow mcp__srv__delete {"id": 3}`) {
		t.Errorf("prompt output:\n%s\nwant the question and the choices twice", got)
	}
}

func TestLinePrompterRejectsAtEndOfInput(t *testing.T) {
	p := newLinePrompter(strings.NewReader(""), io.Discard, style{})
	a, err := p.Ask(context.Background(), permissions.Question{Tool: "mcp__srv__delete"})
	if err != nil || a.Kind != permissions.Reject || a.Reason == "" {
		t.Errorf("answer at end of input = %+v, %v; want a reject with a reason", a, err)
	}
}

func TestLinePrompterStopsWaitingWhenCancelled(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	p := newLinePrompter(r, io.Discard, style{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Ask(ctx, permissions.Question{Tool: "mcp__srv__delete"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Ask with a cancelled context = %v, want context.Canceled", err)
	}
	// Closing the input ends the reader goroutine, which closes lines.
	_ = w.Close()
	for range p.lines {
	}
}

func TestPreviewArgs(t *testing.T) {
	if got := previewArgs([]byte("{\n  \"id\": 1\n}")); got != `{ "id": 1 }` {
		t.Errorf("previewArgs = %q", got)
	}
	if got := previewArgs(nil); got != "{}" {
		t.Errorf("previewArgs(nil) = %q", got)
	}
	long := previewArgs([]byte(strings.Repeat("é", 500)))
	if r := []rune(long); len(r) != maxPreview+1 || !strings.HasSuffix(long, "…") {
		t.Errorf("long preview has %d runes: %q", len(r), long)
	}
}

func TestStyleColoursOnlyWhenEnabled(t *testing.T) {
	plain := style{}
	if got := plain.heading("Step\n\nnext"); got != "Step\n\nnext" {
		t.Errorf("plain style changed the text: %q", got)
	}
	colour := style{color: true}
	if got := colour.good("a\n\nb"); got != sgrGreen+"a"+sgrReset+"\n\n"+sgrGreen+"b"+sgrReset {
		t.Errorf("coloured text = %q, want each non-empty line wrapped", got)
	}
}

func TestStyleForFilesAndNoColor(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if styleFor(f).color {
		t.Error("a regular file got colours")
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if styleFor(null).color || isTerminal(null) {
		t.Error("the null device counts as a terminal")
	}
	// A pseudo-terminal is a real terminal.
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminal to test with: %v", err)
	}
	defer ptmx.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	if !styleFor(ptmx).color {
		t.Error("a terminal got no colours")
	}
	t.Setenv("NO_COLOR", "1")
	if styleFor(ptmx).color {
		t.Error("NO_COLOR=1 still got colours")
	}
}

// "Always" under an ask rule saves a rule that changes nothing while the
// ask rule stands: the question says so.
func TestLinePrompterSaysAnAskRuleAsksAgain(t *testing.T) {
	var out bytes.Buffer
	p := newLinePrompter(strings.NewReader("a\n"), &out, style{})
	a, err := p.Ask(context.Background(), permissions.Question{Tool: "mcp__srv__delete", AskRule: "mcp__srv"})
	if err != nil || a.Kind != permissions.AllowAlways {
		t.Fatalf("answer = %+v, %v", a, err)
	}
	if want := `the ask rule "mcp__srv" asks again next time, even after "always"`; !strings.Contains(out.String(), want) {
		t.Errorf("prompt:\n%s\nwant it to say %q", out.String(), want)
	}
}
