package cli

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// columns is how many terminal columns s takes: an East Asian wide or
// full-width rune takes two, a combining mark or a control none, any other
// rune one. s holds no escape sequences.
func columns(s string) int {
	n := 0
	for _, r := range s {
		n += runeColumns(r)
	}
	return n
}

func runeColumns(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.IsControl(r):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// ellipsis marks text cut to fit.
const ellipsis = "…"

// cutToColumns returns s when it fits in n columns, and otherwise its
// longest beginning that fits with "…" after it.
func cutToColumns(s string, n int) string {
	if columns(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		w := runeColumns(r)
		if used+w > n-1 {
			break
		}
		b.WriteRune(r)
		used += w
	}
	return b.String() + ellipsis
}
