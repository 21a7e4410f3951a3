package parser

import (
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Unicode property escapes (\p{...} and \P{...} in a pattern with the u
// flag) are expanded into character classes of explicit code point ranges
// before the pattern is compiled, so that both engines (re2 and regexp2)
// run them with the same, ECMAScript's, names and sets. The sets are those
// of unicode_properties.txt (see unicode_properties_gen.js).

//go:embed unicode_properties.txt
var unicodePropertiesText string

// ErrInvalidPropertyName is the error of a property escape whose name no
// property has.
var ErrInvalidPropertyName = errors.New("Invalid property name")

type codePointRange struct{ lo, hi rune }

// unicodeProperties maps each spelling of a property to the text of its
// ranges; the ranges are parsed when a pattern first names the property.
var unicodeProperties = sync.OnceValue(func() map[string]string {
	props := make(map[string]string, 2048)
	for _, line := range strings.Split(unicodePropertiesText, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		names, ranges, _ := strings.Cut(line, ": ")
		for _, name := range strings.Fields(names) {
			props[name] = ranges
		}
	}
	return props
})

var parsedProperties sync.Map // ranges text -> []codePointRange

func propertyRanges(name string) ([]codePointRange, bool) {
	text, ok := unicodeProperties()[name]
	if !ok {
		return nil, false
	}
	if r, ok := parsedProperties.Load(text); ok {
		return r.([]codePointRange), true
	}
	fields := strings.Fields(text)
	ranges := make([]codePointRange, 0, len(fields))
	for _, f := range fields {
		lo, hi, isRange := strings.Cut(f, "-")
		l, _ := strconv.ParseUint(lo, 16, 32)
		h := l
		if isRange {
			h, _ = strconv.ParseUint(hi, 16, 32)
		}
		ranges = append(ranges, codePointRange{rune(l), rune(h)})
	}
	parsedProperties.Store(text, ranges)
	return ranges, true
}

// complementRanges is every code point not in ranges (sorted, disjoint).
func complementRanges(ranges []codePointRange) []codePointRange {
	var out []codePointRange
	next := rune(0)
	for _, r := range ranges {
		if r.lo > next {
			out = append(out, codePointRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= 0x10ffff {
		out = append(out, codePointRange{next, 0x10ffff})
	}
	return out
}

func writeRanges(sb *strings.Builder, ranges []codePointRange) {
	for _, r := range ranges {
		fmt.Fprintf(sb, `\u{%X}`, r.lo)
		if r.hi != r.lo {
			fmt.Fprintf(sb, `-\u{%X}`, r.hi)
		}
	}
}

// ErrLoneBrace is the error of a brace that is not part of a quantifier.
var ErrLoneBrace = errors.New("Lone quantifier brackets")

// quantifierLength is the length of the {n}, {n,} or {n,m} quantifier s
// starts with, or 0.
func quantifierLength(s string) int {
	i := 1
	digits := func() int {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if digits() == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		digits()
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}

// ErrPropertyInRange is the error of a property escape as an end of a
// class range ([a-\p{L}]).
var ErrPropertyInRange = errors.New("Invalid character class")

// isRangeDash reports whether the '-' at i, if any, joins the atom before
// it to what follows: it has an atom before it in its class (from start),
// and is not escaped.
func isRangeDash(pattern string, start, i int) bool {
	return i > start && pattern[i] == '-' && pattern[i-1] != '\\'
}

// isRangeDashAfter reports whether a '-' at i starts a range with what
// follows it (anything but the class's end).
func isRangeDashAfter(pattern string, i int) bool {
	return i+1 < len(pattern) && pattern[i] == '-' && pattern[i+1] != ']'
}

// ExpandUnicodePropertyEscapes rewrites each property escape of a pattern
// with the u flag as the set it names: \p{X} as the class of X's ranges,
// \P{X} as the class of the ranges not in X (a set, not an inverted class,
// so that case-insensitive matching folds it as ECMAScript does); inside a
// class, the ranges alone. A name no property has is
// ErrInvalidPropertyName.
//
// It also refuses what the u flag makes an error and goja's parser lets
// through: a brace that is not part of a quantifier.
func ExpandUnicodePropertyEscapes(pattern string) (string, error) {
	if !strings.ContainsAny(pattern, "{}") && !strings.Contains(pattern, `\p`) && !strings.Contains(pattern, `\P`) {
		return pattern, nil
	}
	var sb strings.Builder
	inClass, classStart := false, 0
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern) && (pattern[i+1] == 'p' || pattern[i+1] == 'P'):
			negated := pattern[i+1] == 'P'
			if i+2 >= len(pattern) || pattern[i+2] != '{' {
				return "", ErrInvalidPropertyName
			}
			end := strings.IndexByte(pattern[i+3:], '}')
			if end < 0 {
				return "", ErrInvalidPropertyName
			}
			ranges, ok := propertyRanges(pattern[i+3 : i+3+end])
			if !ok {
				return "", ErrInvalidPropertyName
			}
			if inClass && (isRangeDash(pattern, classStart, i-1) || isRangeDashAfter(pattern, i+4+end)) {
				return "", ErrPropertyInRange
			}
			if negated {
				ranges = complementRanges(ranges)
			}
			if !inClass {
				sb.WriteByte('[')
			}
			writeRanges(&sb, ranges)
			if !inClass {
				sb.WriteByte(']')
			}
			i += 3 + end
		case c == '\\' && i+2 < len(pattern) && pattern[i+1] == 'u' && pattern[i+2] == '{':
			// \u{...}: its braces are not a quantifier's.
			end := strings.IndexByte(pattern[i:], '}')
			if end < 0 {
				end = len(pattern) - i - 1
			}
			sb.WriteString(pattern[i : i+end+1])
			i += end
		case c == '\\' && i+1 < len(pattern):
			sb.WriteByte(c)
			sb.WriteByte(pattern[i+1])
			i++
		case c == '{' && !inClass:
			n := quantifierLength(pattern[i:])
			if n == 0 {
				return "", ErrLoneBrace
			}
			sb.WriteString(pattern[i : i+n])
			i += n - 1
		case c == '}' && !inClass:
			return "", ErrLoneBrace
		case c == '[' && !inClass:
			inClass, classStart = true, i+1
			if i+1 < len(pattern) && pattern[i+1] == '^' {
				classStart++
			}
			sb.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), nil
}
