package sandbox

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-sourcemap/sourcemap"
)

// Every position a script can see (its errors' stack, and the line:col the
// model reads) is a position in the script as written, counted as Node
// counts it: lines from 1, columns from 1 in UTF-16 code units.
//
// goja counts differently on three counts. It runs the script inside a
// wrapper whose prefix shares the script's first line, it counts columns in
// bytes, and, for a transformed script, it reports the column of esbuild's
// source map as is (0-based) after looking it up with a 1-based column.
// goja applies a source map attached to the parsed file to every position
// it reports, so the program always gets one written for goja's lookup:
//
//   - the generated column of each mapping is goja's own (1-based, bytes);
//   - the source column is the one goja should print (1-based, UTF-16, in
//     the script without the wrapper's prefix).
//
// goja's source map reader (go-sourcemap) returns the nearest mapping at or
// before a position, with that mapping's source column unchanged, and no
// mapping at all for a position before the first mapping or after the last
// one (goja then reports the position unmapped). A map for a script compiled
// as written therefore maps every place a token can start on the lines that
// need it: the first line (shifted by the prefix) and every line up to the
// last one with a non-ASCII character (bytes are not UTF-16 units there).
// Lines after those need no mapping: goja's own numbers are right for them.

// positionMap is the source map goja applies to a script compiled as
// written (wrapped, not transformed), or nil when goja's own positions are
// right everywhere.
func positionMap(code string) *sourcemap.Consumer {
	lines := splitLines(code)
	last := 0 // the first line always needs its prefix shift undone
	for i, line := range lines {
		if i > 0 && !isASCII(line) {
			last = i
		}
	}
	var w mapWriter
	for i, line := range lines[:last+1] {
		if i > 0 {
			w.nextLine()
		}
		shift := 0
		if i == 0 {
			shift = len(scriptPrefix)
		}
		units, prev := 0, ' '
		for b, r := range line {
			if startsToken(prev, r) {
				w.add(shift+b+1, i+1, units+1)
			}
			units += utf16Len(r)
			prev = r
		}
	}
	return w.consumer()
}

// transformedPositionMap rewrites esbuild's source map (generated columns in
// UTF-16 units from 0, source positions in the wrapped script from 0) into
// the form positionMap describes.
func transformedPositionMap(generated string, esbuildMap []byte) (*sourcemap.Consumer, error) {
	var raw struct {
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(esbuildMap, &raw); err != nil {
		return nil, err
	}
	lines := splitLines(generated)
	var w mapWriter
	var srcLine, srcColumn int
	for i, group := range strings.Split(raw.Mappings, ";") {
		if i > 0 {
			w.nextLine()
		}
		if i >= len(lines) {
			break
		}
		toByte := newUnitsToBytes(lines[i])
		genColumn := 0
		for _, seg := range strings.Split(group, ",") {
			if seg == "" {
				continue
			}
			fields, err := decodeVLQ(seg)
			if err != nil {
				return nil, err
			}
			genColumn += fields[0]
			if len(fields) < 4 {
				continue // a mapping to no source
			}
			srcLine += fields[2]
			srcColumn += fields[3]
			column := srcColumn
			if srcLine == 0 {
				column = max(column-len(scriptPrefix), 0)
			}
			w.add(toByte.at(genColumn)+1, srcLine+1, column+1)
		}
	}
	return w.consumer(), nil
}

// mapWriter encodes mappings for one source, line by line.
type mapWriter struct {
	mappings  []byte
	count     int
	lineStart bool // no mapping yet on the current generated line
	genColumn int  // previous mapping's, on the current line
	srcLine   int  // previous mapping's, 0-based
	srcColumn int  // previous mapping's
}

// add appends a mapping from the generated column (as goja looks it up) to
// a source line (from 1) and the column goja should report.
func (w *mapWriter) add(genColumn, srcLine, srcColumn int) {
	if w.count > 0 && !w.lineStart {
		w.mappings = append(w.mappings, ',')
	}
	w.mappings = appendVLQ(w.mappings, genColumn-w.genColumn)
	w.mappings = appendVLQ(w.mappings, 0) // the one source
	w.mappings = appendVLQ(w.mappings, srcLine-1-w.srcLine)
	w.mappings = appendVLQ(w.mappings, srcColumn-w.srcColumn)
	w.genColumn, w.srcLine, w.srcColumn = genColumn, srcLine-1, srcColumn
	w.count++
	w.lineStart = false
}

func (w *mapWriter) nextLine() {
	w.mappings = append(w.mappings, ';')
	w.genColumn = 0
	w.lineStart = true
}

// consumer parses what was written; nil when there is nothing to map.
func (w *mapWriter) consumer() *sourcemap.Consumer {
	if w.count == 0 {
		return nil
	}
	doc := make([]byte, 0, len(w.mappings)+64)
	doc = append(doc, `{"version":3,"sources":["`+scriptName+`"],"names":[],"mappings":"`...)
	doc = append(doc, w.mappings...)
	doc = append(doc, `"}`...)
	m, err := sourcemap.Parse(scriptName, doc)
	if err != nil {
		return nil
	}
	return m
}

// splitLines splits code at the line terminators goja and V8 count: \n,
// \r\n, \r, U+2028 and U+2029.
func splitLines(code string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(code); {
		r, size := utf8.DecodeRuneInString(code[i:])
		switch r {
		case '\n', '\u2028', '\u2029':
			lines = append(lines, code[start:i])
			start = i + size
		case '\r':
			lines = append(lines, code[start:i])
			if i+1 < len(code) && code[i+1] == '\n' {
				size++
			}
			start = i + size
		}
		i += size
	}
	return append(lines, code[start:])
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// startsToken reports whether r, after prev, may start a token: goja
// reports positions only where a token starts, never in whitespace or
// inside a word. A false yes costs one mapping.
func startsToken(prev, r rune) bool {
	switch r {
	case ' ', '\t', '\v', '\f', '\u00a0', '\ufeff':
		return false
	}
	return !isWordRune(prev) || !isWordRune(r)
}

func isWordRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// unitsToBytes converts UTF-16 offsets in one line to byte offsets.
type unitsToBytes struct {
	line  string
	ascii bool
}

func newUnitsToBytes(line string) unitsToBytes {
	return unitsToBytes{line: line, ascii: isASCII(line)}
}

func (u unitsToBytes) at(units int) int {
	if u.ascii {
		return units
	}
	n := 0
	for b, r := range u.line {
		if n >= units {
			return b
		}
		n += utf16Len(r)
	}
	return len(u.line) + units - n
}

const base64Digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// appendVLQ appends v in the source map's base64 VLQ encoding.
func appendVLQ(dst []byte, v int) []byte {
	u := v << 1
	if v < 0 {
		u = -v<<1 | 1
	}
	for {
		digit := u & 31
		u >>= 5
		if u > 0 {
			digit |= 32
		}
		dst = append(dst, base64Digits[digit])
		if u == 0 {
			return dst
		}
	}
}

var errBadVLQ = errors.New("invalid source map mapping")

// decodeVLQ decodes the fields of one mapping.
func decodeVLQ(seg string) ([]int, error) {
	var fields []int
	value, shift := 0, 0
	for i := 0; i < len(seg); i++ {
		digit := strings.IndexByte(base64Digits, seg[i])
		if digit < 0 || shift > 30 {
			return nil, errBadVLQ
		}
		value |= (digit & 31) << shift
		if digit&32 != 0 {
			shift += 5
			continue
		}
		if value&1 != 0 {
			fields = append(fields, -(value >> 1))
		} else {
			fields = append(fields, value>>1)
		}
		value, shift = 0, 0
	}
	if shift != 0 {
		return nil, errBadVLQ
	}
	return fields, nil
}
