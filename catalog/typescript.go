package catalog

import (
	"slices"
	"strconv"
	"strings"
)

// maxDepth is how many object and array levels a type expands before the
// rest is written as unknown (CAT-2). It is the only limit on what the
// renderer shows: widths, enum sizes and descriptions are never cut. Real
// schemas nest up to eleven levels (one lark tool); everything the fixtures
// hold at eight levels or less renders in full.
const maxDepth = 8

// maxVisits is a safety valve, not a trimming policy: a hostile schema whose
// $defs reference each other as a wide DAG would expand exponentially within
// the depth limit. It counts only nodes reached through a $ref, so a schema
// written out in full, however wide, is rendered in full (CAT-2): its output
// is as large as its input. No real schema comes near it (the largest
// fixture tool visits a few thousand nodes); past it the remaining expanded
// nodes render as unknown so rendering always terminates in bounded memory.
const maxVisits = 1 << 18

// maxRefHops bounds how many $ref links a description lookup follows.
const maxRefHops = 32

// tsRenderer turns one JSON Schema document into a TypeScript type, written
// into one growing buffer (nested types are not built as separate strings
// and copied into their parents: catalogs render megabytes). It holds the
// document root for local $ref resolution and the refs being expanded, so a
// reference cycle renders as unknown at the point where it recurs.
type tsRenderer struct {
	root   *node
	active []*node
	visits int
	buf    []byte
	// lastUnion is set by base: whether the type it wrote is a union.
	lastUnion bool
}

// reset prepares the renderer for the document rooted at root, keeping its
// buffer's memory.
func (r *tsRenderer) reset(root *node) {
	r.root, r.active, r.visits, r.buf = root, r.active[:0], 0, r.buf[:0]
}

// render returns the type of s at the top level, in the renderer's buffer:
// valid until its next use.
func (r *tsRenderer) render(s *node) []byte {
	r.buf = r.buf[:0]
	r.typ(s, 0, 0)
	return r.buf
}

const unknownType = "unknown"

// isUnknownSince reports whether what was written since start is exactly
// "unknown".
func (r *tsRenderer) isUnknownSince(start int) bool {
	return string(r.buf[start:]) == unknownType
}

// repeatsSpan reports whether the text written since start equals one of
// the earlier spans.
func (r *tsRenderer) repeatsSpan(start int, spans [][2]int) bool {
	cur := r.buf[start:]
	for _, sp := range spans {
		if string(r.buf[sp[0]:sp[1]]) == string(cur) {
			return true
		}
	}
	return false
}

func (r *tsRenderer) writeIndent(level int) {
	for range level {
		r.buf = append(r.buf, "  "...)
	}
}

// typ writes the type of s; nested lines are indented one step beyond
// level. It reports whether the type is a union at its top level, which
// needs parentheses inside an intersection.
func (r *tsRenderer) typ(s *node, level, depth int) bool {
	if s == nil {
		r.buf = append(r.buf, unknownType...)
		return false
	}
	switch s.kind {
	case kindBool:
		if s.text == "false" {
			r.buf = append(r.buf, "never"...)
		} else {
			r.buf = append(r.buf, unknownType...)
		}
		return false
	case kindObject:
	default:
		r.buf = append(r.buf, unknownType...)
		return false
	}
	if len(r.active) > 0 {
		r.visits++
		if r.visits > maxVisits {
			r.buf = append(r.buf, unknownType...)
			return false
		}
	}

	k := s.schemaKeywords()
	if ref, ok := stringValue(k.ref); ok {
		target := r.resolve(ref)
		if target == nil || r.isActive(target) {
			r.buf = append(r.buf, unknownType...)
			return false
		}
		r.active = append(r.active, target)
		u := r.typ(target, level, depth)
		r.active = r.active[:len(r.active)-1]
		return u
	}

	if c := k.constant; c != nil {
		r.buf = c.appendJSON(r.buf)
		return false
	}
	if e := k.enum; e != nil && e.kind == kindArray {
		if len(e.items) == 0 {
			r.buf = append(r.buf, "never"...)
			return false
		}
		n := r.alternatives(len(e.items), " | ", false, func(i int) {
			r.buf = e.items[i].appendJSON(r.buf)
		})
		return n > 1
	}

	// The type keywords, anyOf, oneOf and allOf each give one part; several
	// parts form an intersection.
	start := len(r.buf)
	var parts []span
	hasBase := false
	if from := len(r.buf); r.base(&k, level, depth) {
		hasBase = len(r.buf) > from
		if hasBase {
			parts = append(parts, span{from, len(r.buf), r.lastUnion})
		}
	}
	for _, list := range [...]*node{k.anyOf, k.oneOf} {
		if list == nil || list.kind != kindArray || len(list.items) == 0 {
			continue
		}
		from := len(r.buf)
		sawUnknown := false
		n := r.alternatives(len(list.items), " | ", true, func(i int) {
			vs := len(r.buf)
			r.typ(list.items[i], level, depth)
			if r.isUnknownSince(vs) {
				sawUnknown = true
			}
		})
		switch {
		case sawUnknown && !hasBase:
			// A variant with no type of its own makes the union unknown.
			r.buf = append(r.buf[:from], unknownType...)
			parts = append(parts, span{from, len(r.buf), false})
		case n > 0:
			parts = append(parts, span{from, len(r.buf), n > 1})
		}
	}
	if all := k.allOf; all != nil && all.kind == kindArray {
		for _, v := range all.items {
			from := len(r.buf)
			u := r.typ(v, level, depth)
			if r.isUnknownSince(from) {
				r.buf = r.buf[:from]
				continue
			}
			parts = append(parts, span{from, len(r.buf), u})
		}
	}
	if len(parts) == 1 {
		return parts[0].union
	}
	return r.intersect(start, parts)
}

// span is a stretch of the buffer holding one rendered type.
type span struct {
	from, to int
	union    bool
}

// intersect rewrites the parts written since start as one intersection,
// dropping repeats, and "unknown" beside other parts (A & unknown is A).
// Unions are parenthesized.
func (r *tsRenderer) intersect(start int, parts []span) bool {
	written := string(r.buf[start:])
	r.buf = r.buf[:start]
	var kept []span
	for _, p := range parts {
		text := written[p.from-start : p.to-start]
		dup := slices.ContainsFunc(kept, func(k span) bool { return written[k.from-start:k.to-start] == text })
		if text != unknownType && !dup {
			kept = append(kept, p)
		}
	}
	switch len(kept) {
	case 0:
		r.buf = append(r.buf, unknownType...)
		return false
	case 1:
		r.buf = append(r.buf, written[kept[0].from-start:kept[0].to-start]...)
		return kept[0].union
	}
	for i, k := range kept {
		if i > 0 {
			r.buf = append(r.buf, " & "...)
		}
		text := written[k.from-start : k.to-start]
		if k.union {
			r.buf = append(append(append(r.buf, '('), text...), ')')
		} else {
			r.buf = append(r.buf, text...)
		}
	}
	return false
}

// alternatives writes n alternatives through write, separated by sep,
// dropping any that repeats an earlier one and, when dropUnknown is set,
// any that is "unknown" (it adds nothing beside other alternatives). It
// returns how many were kept.
func (r *tsRenderer) alternatives(n int, sep string, dropUnknown bool, write func(i int)) int {
	var spans [][2]int
	for i := range n {
		before := len(r.buf)
		if len(spans) > 0 {
			r.buf = append(r.buf, sep...)
		}
		from := len(r.buf)
		write(i)
		if (dropUnknown && r.isUnknownSince(from)) || r.repeatsSpan(from, spans) {
			r.buf = r.buf[:before]
			continue
		}
		spans = append(spans, [2]int{from, len(r.buf)})
	}
	return len(spans)
}

// base writes the type keywords of s: type (a name or a list of names), or
// the shape keywords that imply one, plus OpenAPI's nullable. It reports
// whether s has any; r.lastUnion tells whether what it wrote is a union.
func (r *tsRenderer) base(k *keywords, level, depth int) bool {
	var one [1]string
	var types []string
	switch t := k.typ; {
	case t == nil:
		switch {
		case k.properties != nil || k.additionalProperties != nil || k.patternProperties != nil:
			one[0] = "object"
			types = one[:]
		case k.items != nil || k.prefixItems != nil:
			one[0] = "array"
			types = one[:]
		}
	case t.kind == kindString:
		one[0] = t.text
		types = one[:]
	case t.kind == kindArray:
		for _, it := range t.items {
			if it.kind == kindString {
				types = append(types, it.text)
			}
		}
	}
	if len(types) == 0 {
		return false
	}
	nullable := k.nullable != nil && k.nullable.kind == kindBool && k.nullable.text == "true"
	count := len(types)
	if nullable {
		count++
	}
	n := r.alternatives(count, " | ", false, func(i int) {
		if i == len(types) {
			r.buf = append(r.buf, "null"...)
			return
		}
		r.named(types[i], k, level, depth)
	})
	r.lastUnion = n > 1
	return true
}

func (r *tsRenderer) named(name string, k *keywords, level, depth int) {
	switch name {
	case "string", "number", "boolean", "null":
		r.buf = append(r.buf, name...)
	case "integer":
		r.buf = append(r.buf, "number"...)
	case "object":
		r.object(k, level, depth)
	case "array":
		r.array(k, level, depth)
	default:
		r.buf = append(r.buf, unknownType...)
	}
}

func (r *tsRenderer) array(k *keywords, level, depth int) {
	if depth >= maxDepth {
		r.buf = append(r.buf, unknownType...)
		return
	}
	tuple := k.prefixItems
	if items := k.items; items != nil && items.kind == kindArray {
		tuple = items
	}
	if tuple != nil && tuple.kind == kindArray {
		r.buf = append(r.buf, '[')
		for i, it := range tuple.items {
			if i > 0 {
				r.buf = append(r.buf, ", "...)
			}
			r.typ(it, level, depth+1)
		}
		r.buf = append(r.buf, ']')
		return
	}
	r.buf = append(r.buf, "Array<"...)
	r.typ(k.items, level, depth+1)
	r.buf = append(r.buf, '>')
}

func (r *tsRenderer) object(k *keywords, level, depth int) {
	if depth >= maxDepth {
		r.buf = append(r.buf, unknownType...)
		return
	}
	props := k.properties
	if props != nil && (props.kind != kindObject || len(props.keys) == 0) {
		props = nil
	}
	indexSchemas := indexSchemas(k)
	if props == nil && len(indexSchemas) == 0 {
		r.buf = append(r.buf, "{}"...)
		return
	}
	var required []string
	if req := k.required; req != nil && req.kind == kindArray {
		for _, it := range req.items {
			if it.kind == kindString {
				required = append(required, it.text)
			}
		}
	}
	r.buf = append(r.buf, "{\n"...)
	if props != nil {
		for i, key := range props.keys {
			if props.shadowed(i) {
				continue
			}
			p := props.vals[i]
			r.writeDoc(p, level+1)
			r.writeIndent(level + 1)
			r.buf = appendPropertyKey(r.buf, key)
			if !slices.Contains(required, key) {
				r.buf = append(r.buf, '?')
			}
			r.buf = append(r.buf, ": "...)
			r.typ(p, level+1, depth+1)
			r.buf = append(r.buf, ";\n"...)
		}
	}
	if len(indexSchemas) > 0 {
		r.writeIndent(level + 1)
		r.buf = append(r.buf, "[key: string]: "...)
		from := len(r.buf)
		sawUnknown := false
		r.alternatives(len(indexSchemas), " | ", false, func(i int) {
			vs := len(r.buf)
			r.typ(indexSchemas[i], level+1, depth+1)
			sawUnknown = sawUnknown || r.isUnknownSince(vs)
		})
		if sawUnknown {
			r.buf = append(r.buf[:from], unknownType...)
		}
		r.buf = append(r.buf, ";\n"...)
	}
	r.writeIndent(level)
	r.buf = append(r.buf, '}')
}

// indexSchemas lists the value schemas of a string index signature:
// patternProperties and additionalProperties given as a schema (or true).
func indexSchemas(k *keywords) []*node {
	var out []*node
	if pp := k.patternProperties; pp != nil && pp.kind == kindObject {
		for i := range pp.keys {
			if !pp.shadowed(i) {
				out = append(out, pp.vals[i])
			}
		}
	}
	if ap := k.additionalProperties; ap != nil {
		if ap.kind == kindObject || (ap.kind == kindBool && ap.text == "true") {
			out = append(out, ap)
		}
	}
	return out
}

// resolve follows a local reference ("#", "#/$defs/x", "#/definitions/x",
// any JSON pointer into the document). Remote references resolve to nil.
func (r *tsRenderer) resolve(ref string) *node {
	if ref == "#" {
		return r.root
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	cur := r.root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case cur == nil:
			return nil
		case cur.kind == kindObject:
			cur = cur.get(tok)
		case cur.kind == kindArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.items) {
				return nil
			}
			cur = cur.items[i]
		default:
			return nil
		}
	}
	return cur
}

func (r *tsRenderer) isActive(target *node) bool {
	for _, a := range r.active {
		if a == target {
			return true
		}
	}
	return false
}
