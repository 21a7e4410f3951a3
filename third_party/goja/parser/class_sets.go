package parser

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A pattern with the v flag (unicodeSets) differs from one with the u flag
// in its classes: they nest, and combine by intersection (&&) and
// difference (--). ExpandClassSets computes each class's set of code points
// and writes it as a u-flag class of explicit ranges, which the engines run;
// the rest of the pattern is u-flag syntax already. Strings of several
// characters (\q{abc|def}) are supported in the union that is a whole
// class, which becomes an alternation of the strings, longest first, and
// the class; properties of strings are not supported.

var errClassSet = errors.New("Invalid set operation in character class")

var errClassStrings = errors.New("Strings in a character class are not supported")

// ExpandClassSets rewrites the classes of a v-flag pattern as u-flag ones.
func ExpandClassSets(pattern string) (string, error) {
	var sb strings.Builder
	for i := 0; i < len(pattern); {
		switch c := pattern[i]; {
		case c == '\\' && i+1 < len(pattern):
			sb.WriteString(pattern[i : i+2])
			i += 2
		case c == '[':
			p := classSetParser{s: pattern, pos: i}
			set, negated, err := p.class()
			if err != nil {
				return "", err
			}
			if len(p.strings) > 0 {
				if negated {
					return "", errClassStrings
				}
				writeStrings(&sb, p.strings)
			}
			writeClass(&sb, set, negated)
			if len(p.strings) > 0 {
				sb.WriteByte(')')
			}
			i = p.pos
		default:
			sb.WriteByte(c)
			i++
		}
	}
	return sb.String(), nil
}

func writeClass(sb *strings.Builder, set []codePointRange, negated bool) {
	if len(set) == 0 {
		// The empty class: nothing, or with ^ everything.
		negated = !negated
		set = []codePointRange{{0, 0x10ffff}}
	}
	sb.WriteByte('[')
	if negated {
		sb.WriteByte('^')
	}
	writeRanges(sb, set)
	sb.WriteByte(']')
}

type classSetParser struct {
	s   string
	pos int
	// depth is the nesting of the class being read; strings are the
	// strings of several characters of the outermost class's union.
	depth   int
	strings []string
	inSetOp bool
}

// writeStrings opens the alternation of a class with strings: the longest
// first, as a class with strings matches.
func writeStrings(sb *strings.Builder, strs []string) {
	sort.SliceStable(strs, func(i, j int) bool { return utf8.RuneCountInString(strs[i]) > utf8.RuneCountInString(strs[j]) })
	sb.WriteString("(?:")
	for _, s := range strs {
		for _, r := range s {
			writeRanges(sb, []codePointRange{{r, r}})
		}
		sb.WriteByte('|')
	}
}

func (p *classSetParser) peek(prefix string) bool { return strings.HasPrefix(p.s[p.pos:], prefix) }

// class reads a class from its '[' to its ']'.
func (p *classSetParser) class() (set []codePointRange, negated bool, err error) {
	p.pos++ // '['
	p.depth++
	defer func() { p.depth-- }()
	if p.peek("^") {
		negated = true
		p.pos++
	}
	if p.peek("]") {
		p.pos++
		return nil, negated, nil
	}
	first, single, err := p.operand()
	if err != nil {
		return nil, false, err
	}
	switch {
	case p.peek("&&") || p.peek("--"):
		op := p.s[p.pos : p.pos+2]
		if len(p.strings) > 0 {
			return nil, false, errClassStrings
		}
		p.inSetOp = true
		defer func() { p.inSetOp = false }()
		set = first
		for p.peek(op) {
			p.pos += 2
			next, _, err := p.operand()
			if err != nil {
				return nil, false, err
			}
			if op == "&&" {
				set = intersectRanges(set, next)
			} else {
				set = subtractRanges(set, next)
			}
		}
	default:
		set = first
		for {
			if p.peek("-") && single >= 0 {
				p.pos++
				_, hiSingle, err := p.operand()
				if err != nil {
					return nil, false, err
				}
				if hiSingle < 0 || hiSingle < single {
					return nil, false, errClassSet
				}
				set = unionRanges(set, []codePointRange{{single, hiSingle}})
				single = -1
			}
			if p.peek("]") || p.pos >= len(p.s) {
				break
			}
			if p.peek("&&") || p.peek("--") {
				return nil, false, errClassSet
			}
			var next []codePointRange
			next, single, err = p.operand()
			if err != nil {
				return nil, false, err
			}
			set = unionRanges(set, next)
		}
	}
	if !p.peek("]") {
		return nil, false, errClassSet
	}
	p.pos++
	return set, negated, nil
}

// operand reads one operand of a class: a nested class, a class escape, or
// one character; single is that character, or -1 for a set.
func (p *classSetParser) operand() (set []codePointRange, single rune, err error) {
	if p.pos >= len(p.s) {
		return nil, -1, errClassSet
	}
	c := p.s[p.pos]
	switch c {
	case '[':
		set, negated, err := p.class()
		if err != nil {
			return nil, -1, err
		}
		if negated {
			set = complementRanges(set)
		}
		return set, -1, nil
	case '\\':
		return p.escape()
	case '(', ')', '{', '}', '/', '|', ']', '-':
		return nil, -1, errClassSet
	}
	if p.pos+1 < len(p.s) && p.s[p.pos+1] == c && strings.IndexByte("&!#$%*+,.:;<=>?@^`~", c) >= 0 {
		// A reserved double punctuator.
		return nil, -1, errClassSet
	}
	r, size := utf8.DecodeRuneInString(p.s[p.pos:])
	p.pos += size
	return []codePointRange{{r, r}}, r, nil
}

var (
	digitRanges = []codePointRange{{'0', '9'}}
	wordRanges  = []codePointRange{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	spaceRanges = []codePointRange{{'\t', '\r'}, {' ', ' '}, {0xa0, 0xa0}, {0x1680, 0x1680}, {0x2000, 0x200a},
		{0x2028, 0x2029}, {0x202f, 0x202f}, {0x205f, 0x205f}, {0x3000, 0x3000}, {0xfeff, 0xfeff}}
)

func (p *classSetParser) escape() ([]codePointRange, rune, error) {
	p.pos++ // '\'
	if p.pos >= len(p.s) {
		return nil, -1, errClassSet
	}
	c := p.s[p.pos]
	p.pos++
	one := func(r rune) ([]codePointRange, rune, error) { return []codePointRange{{r, r}}, r, nil }
	switch c {
	case 'd':
		return digitRanges, -1, nil
	case 'D':
		return complementRanges(digitRanges), -1, nil
	case 'w':
		return wordRanges, -1, nil
	case 'W':
		return complementRanges(wordRanges), -1, nil
	case 's':
		return spaceRanges, -1, nil
	case 'S':
		return complementRanges(spaceRanges), -1, nil
	case 'p', 'P':
		if !p.peek("{") {
			return nil, -1, ErrInvalidPropertyName
		}
		end := strings.IndexByte(p.s[p.pos:], '}')
		if end < 0 {
			return nil, -1, ErrInvalidPropertyName
		}
		ranges, ok := propertyRanges(p.s[p.pos+1 : p.pos+end])
		if !ok {
			return nil, -1, ErrInvalidPropertyName
		}
		p.pos += end + 1
		if c == 'P' {
			ranges = complementRanges(ranges)
		}
		return ranges, -1, nil
	case 'q':
		return p.classStrings()
	case 'n':
		return one('\n')
	case 'r':
		return one('\r')
	case 't':
		return one('\t')
	case 'v':
		return one('\v')
	case 'f':
		return one('\f')
	case 'b':
		return one('\b')
	case '0':
		return one(0)
	case 'c':
		if p.pos < len(p.s) && ('a' <= p.s[p.pos]|0x20 && p.s[p.pos]|0x20 <= 'z') {
			p.pos++
			return one(rune(p.s[p.pos-1] % 32))
		}
		return nil, -1, errClassSet
	case 'x':
		return p.hex(2)
	case 'u':
		if p.peek("{") {
			end := strings.IndexByte(p.s[p.pos:], '}')
			if end < 0 {
				return nil, -1, errClassSet
			}
			v, err := strconv.ParseUint(p.s[p.pos+1:p.pos+end], 16, 32)
			if err != nil || v > 0x10ffff {
				return nil, -1, errClassSet
			}
			p.pos += end + 1
			return one(rune(v))
		}
		return p.hex(4)
	}
	if strings.IndexByte("^$\\.*+?()[]{}|/-&!#%,:;<=>@`~", c) >= 0 {
		return one(rune(c))
	}
	return nil, -1, errClassSet
}

func (p *classSetParser) hex(n int) ([]codePointRange, rune, error) {
	if p.pos+n > len(p.s) {
		return nil, -1, errClassSet
	}
	v, err := strconv.ParseUint(p.s[p.pos:p.pos+n], 16, 32)
	if err != nil {
		return nil, -1, errClassSet
	}
	p.pos += n
	return []codePointRange{{rune(v), rune(v)}}, rune(v), nil
}

// classStrings reads \q{...}: only strings of one character each, which are
// code points of the set.
func (p *classSetParser) classStrings() ([]codePointRange, rune, error) {
	if !p.peek("{") {
		return nil, -1, errClassSet
	}
	p.pos++
	var set []codePointRange
	var current []rune
	end := func() error {
		switch len(current) {
		case 1:
			set = unionRanges(set, []codePointRange{{current[0], current[0]}})
		default:
			if p.depth != 1 || p.inSetOp {
				return errClassStrings
			}
			p.strings = append(p.strings, string(current))
		}
		current = current[:0]
		return nil
	}
	for {
		if p.pos >= len(p.s) {
			return nil, -1, errClassSet
		}
		switch c := p.s[p.pos]; c {
		case '}', '|':
			p.pos++
			if err := end(); err != nil {
				return nil, -1, err
			}
			if c == '}' {
				return set, -1, nil
			}
		case '\\':
			_, single, err := p.escape()
			if err != nil || single < 0 {
				return nil, -1, errClassSet
			}
			current = append(current, single)
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.pos:])
			p.pos += size
			current = append(current, r)
		}
	}
}

// unionRanges, intersectRanges and subtractRanges combine sorted, disjoint
// ranges into sorted, disjoint ranges.
func unionRanges(a, b []codePointRange) []codePointRange {
	all := append(append([]codePointRange(nil), a...), b...)
	sort.Slice(all, func(i, j int) bool { return all[i].lo < all[j].lo })
	var out []codePointRange
	for _, r := range all {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func intersectRanges(a, b []codePointRange) []codePointRange {
	var out []codePointRange
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo <= hi {
			out = append(out, codePointRange{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

func subtractRanges(a, b []codePointRange) []codePointRange {
	return intersectRanges(a, complementRanges(b))
}
