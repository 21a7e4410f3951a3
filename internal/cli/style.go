package cli

import (
	"os"
	"strings"
)

// style adds ANSI colours to text meant for a person, and nothing at all when
// the output is not a terminal or the user asked for no colour: pipes, files
// and tests get plain text.
type style struct{ color bool }

// styleFor decides colours for f: only a terminal, and never when NO_COLOR
// is set to anything (https://no-color.org) or TERM is "dumb".
func styleFor(f *os.File) style {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return style{}
	}
	return style{color: isTerminal(f)}
}

// isTerminal reports whether f is a terminal: a character device other than
// the null device (which is one too, and what a program started without
// input usually gets as stdin).
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(info, null)
}

const (
	sgrReset  = "\x1b[0m"
	sgrBold   = "\x1b[1m"
	sgrDim    = "\x1b[2m"
	sgrRed    = "\x1b[31m"
	sgrGreen  = "\x1b[32m"
	sgrYellow = "\x1b[33m"
	sgrCyan   = "\x1b[36m"
)

func (s style) wrap(code, text string) string {
	if !s.color || text == "" {
		return text
	}
	// Colour each line on its own, so a pager or a terminal that redraws
	// one line never bleeds a colour into the next.
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = code + l + sgrReset
		}
	}
	return strings.Join(lines, "\n")
}

func (s style) heading(text string) string { return s.wrap(sgrBold+sgrCyan, text) }
func (s style) bold(text string) string    { return s.wrap(sgrBold, text) }
func (s style) dim(text string) string     { return s.wrap(sgrDim, text) }
func (s style) good(text string) string    { return s.wrap(sgrGreen, text) }
func (s style) bad(text string) string     { return s.wrap(sgrRed, text) }
func (s style) note(text string) string    { return s.wrap(sgrYellow, text) }

// indent prefixes every non-empty line of text with prefix.
func indent(text, prefix string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}
