package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestWarningLoggerKeepsEachEventToOneShortLine(t *testing.T) {
	var buf bytes.Buffer
	log := warningLogger(&buf, style{})
	log.Info().Msg("not shown")
	log.Warn().Str("output", "fatal error: out of memory\n\ngoroutine 1 [running]:\n"+strings.Repeat("frame\n", 100)).Msg("worker stopped")
	log.Warn().Str("detail", strings.Repeat("x", 500)).Msg("long")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("logged %d lines, want 2 (warnings only, one line each):\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], `worker stopped output="fatal error: out of memory…"`) {
		t.Errorf("first line %q, want the output cut at its first line", lines[0])
	}
	if n := len([]rune(lines[1])); n > maxFieldRunes+40 {
		t.Errorf("second line has %d runes, want it cut near %d", n, maxFieldRunes)
	}
}

// An error in a warning reads as its message was written: the quotes in it
// are not escaped, and only its first line is shown.
func TestWarningLoggerShowsErrorsUnescaped(t *testing.T) {
	var buf bytes.Buffer
	log := warningLogger(&buf, style{})
	log.Warn().Err(errors.New(`mcp.json:3:26: mcp server "bad": "command" must be a string, not a number`)).Msg("mcp server entry skipped")
	log.Warn().Err(errors.New("server \"x\" exited: boom\nstack line 1\nstack line 2")).Msg("server failed")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("logged %d lines, want 2:\n%s", len(lines), buf.String())
	}
	if want := `mcp server entry skipped error=mcp.json:3:26: mcp server "bad": "command" must be a string, not a number`; !strings.Contains(lines[0], want) {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if want := `server failed error=server "x" exited: boom…`; !strings.HasSuffix(lines[1], want) {
		t.Errorf("second line %q, want it to end %q", lines[1], want)
	}
}
