package catalog

import (
	"strings"
	"unicode"
)

// summaryText is what a description says first: its first line that
// carries content, without a list marker. Lines that only head what
// follows are passed over: a label ("🎯 Purpose:", "Usage:"), a short
// markdown heading ("## Overview") or a line without a letter or digit
// ("---"). A description made of nothing else gives its first non-blank
// line (CAT-1).
func summaryText(desc string) string {
	first := ""
	for line := range strings.Lines(desc) {
		line, _, _ = strings.Cut(line, "\r") // a lone CR ends a line too
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if first == "" {
			first = line
		}
		if !isHeadingLine(line) {
			return trimListMarker(line)
		}
	}
	return first
}

// headingMaxWords is the most words a line ending in a colon, or starting
// with a heading mark or a pictograph, may have to count as a heading.
// Longer lines say something ("Reply to the sender ... When using JSON
// format:").
const headingMaxWords = 3

// isHeadingLine reports whether a trimmed line only introduces what
// follows.
func isHeadingLine(line string) bool {
	if strings.IndexFunc(line, isWordRune) < 0 {
		return true
	}
	marked := strings.HasPrefix(line, "#") || strings.HasPrefix(line, "**")
	if r := []rune(line)[0]; unicode.IsSymbol(r) {
		marked = true
	}
	words := strings.TrimFunc(line, func(r rune) bool { return !isWordRune(r) })
	colon := strings.HasSuffix(strings.TrimRight(line, "*_ "), ":")
	return (marked || colon) && len(strings.Fields(words)) <= headingMaxWords
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// trimListMarker removes a leading "1. ", "2) ", "- ", "* " or "• " from a
// line that is a list item.
func trimListMarker(line string) string {
	rest := strings.TrimLeft(line, "0123456789")
	if len(rest) < len(line) && len(line)-len(rest) <= 3 {
		if r, ok := strings.CutPrefix(rest, ". "); ok {
			return strings.TrimSpace(r)
		}
		if r, ok := strings.CutPrefix(rest, ") "); ok {
			return strings.TrimSpace(r)
		}
		return line
	}
	for _, m := range []string{"- ", "* ", "• "} {
		if r, ok := strings.CutPrefix(line, m); ok {
			return strings.TrimSpace(r)
		}
	}
	return line
}
