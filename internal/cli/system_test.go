package cli

import (
	"bytes"
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
