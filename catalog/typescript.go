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
// the depth limit. No real schema comes near it (the largest fixture tool
// visits a few thousand nodes); past it the remaining nodes render as
// unknown so rendering always terminates in bounded memory.
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
	r.visits++
	if r.visits > maxVisits {
		r.buf = append(r.buf, unknownType...)
		return false
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

// docSources lists the keywords of the schemas a property's documentation
// may come from: the property itself, the members of its allOf, the
// definitions its $ref chain leads to, and the single non-null variant of a
// nullable anyOf/oneOf.
func (r *tsRenderer) docSources(s *node, out []keywords) []keywords {
	for hops := 0; s != nil && s.kind == kindObject && hops < maxRefHops; hops++ {
		k := s.schemaKeywords()
		out = append(out, k)
		if all := k.allOf; all != nil && all.kind == kindArray {
			for _, m := range all.items {
				if ref, ok := stringValue(m.get("$ref")); ok {
					m = r.resolve(ref)
				}
				out = append(out, m.schemaKeywords())
			}
		}
		if ref, ok := stringValue(k.ref); ok {
			s = r.resolve(ref)
			continue
		}
		s = soleNonNullVariant(&k)
	}
	return out
}

func soleNonNullVariant(k *keywords) *node {
	for _, list := range [...]*node{k.anyOf, k.oneOf} {
		if list == nil || list.kind != kindArray {
			continue
		}
		var found *node
		for _, v := range list.items {
			if t, _ := stringValue(v.get("type")); t == "null" {
				continue
			}
			if found != nil {
				return nil
			}
			found = v
		}
		return found
	}
	return nil
}

// inlineDocWidth is the line width up to which a short description and its
// tags are written as a single /** ... */ line.
const inlineDocWidth = 120

// writeDoc writes the JSDoc comment of a property: its description (or
// title) verbatim, line by line, then its constraint tags.
func (r *tsRenderer) writeDoc(s *node, level int) {
	var srcBuf [4]keywords
	sources := r.docSources(s, srcBuf[:0])
	lines := docLines(r.docText(sources))
	tags := docTagsOf(sources)
	// A one-line description and its tags share one line while it stays
	// short; otherwise every tag gets its own line below the text.
	if len(lines) <= 1 && len(tags) > 0 {
		joined := strings.Join(append(lines[:len(lines):len(lines)], tags...), " ")
		if 2*level+len(joined)+len("/**  */") <= inlineDocWidth {
			lines, tags = []string{joined}, nil
		}
	}
	lines = append(lines, tags...)
	lines = append(lines, r.itemDoc(sources)...)
	r.buf = appendComment(r.buf, lines, level)
}

// itemDoc documents the items of an array property whose items carry a
// description or constraints of their own (an object's fields carry theirs
// inside its type): "Each item: ..." lines.
func (r *tsRenderer) itemDoc(sources []keywords) []string {
	var items *node
	for i := range sources {
		if items = sources[i].items; items != nil {
			break
		}
	}
	if items == nil || items.kind != kindObject {
		return nil
	}
	var buf [4]keywords
	itemSources := r.docSources(items, buf[:0])
	lines := append(docLines(r.docText(itemSources)), docTagsOf(itemSources)...)
	if len(lines) == 0 {
		return nil
	}
	lines[0] = "Each item: " + lines[0]
	return lines
}

// docTagsOf renders the JSDoc tags of a property (deprecated, format,
// default and the numeric, length, pattern and item-count bounds), each
// from the first source carrying it.
func docTagsOf(sources []keywords) []string {
	if len(sources) == 0 {
		return nil
	}
	var tags []string
	for i, tag := range sources[0].tags() {
		v := tag.value
		for j := 1; v == nil && j < len(sources); j++ {
			v = sources[j].tags()[i].value
		}
		switch {
		case v == nil:
		case tag.name == "deprecated":
			if v.kind == kindBool && v.text == "true" {
				tags = append(tags, "@deprecated")
			}
		case v.kind == kindString && tag.name != "default":
			tags = append(tags, "@"+tag.name+" "+escapeComment(v.text))
		default:
			tags = append(tags, "@"+tag.name+" "+escapeComment(v.json()))
		}
	}
	return tags
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// docText finds a property's text: the description (or title) of the first
// source that has one; failing that, the texts of its union's variants, so a
// description placed one level down still shows.
func (r *tsRenderer) docText(sources []keywords) string {
	for i := range sources {
		if t := ownText(&sources[i]); t != "" {
			return t
		}
	}
	var texts []string
	var lists []*node
	for i := range sources {
		if sources[i].anyOf != nil || sources[i].oneOf != nil {
			lists = []*node{sources[i].anyOf, sources[i].oneOf}
			break
		}
	}
	for _, list := range lists {
		if list == nil || list.kind != kindArray {
			continue
		}
		for _, v := range list.items {
			if ref, ok := stringValue(v.get("$ref")); ok {
				v = r.resolve(ref)
			}
			k := v.schemaKeywords()
			if t := ownText(&k); t != "" && !slices.Contains(texts, t) {
				texts = append(texts, t)
			}
		}
	}
	return strings.Join(texts, "\n")
}

func ownText(k *keywords) string {
	t, ok := stringValue(k.description)
	if !ok || isBlank(t) {
		t, ok = stringValue(k.title)
	}
	if ok && !isBlank(t) {
		return t
	}
	return ""
}

// appendComment writes lines as a JSDoc comment: one line as /** text */,
// more as a block.
func appendComment(b []byte, lines []string, level int) []byte {
	indent := func() {
		for range level {
			b = append(b, "  "...)
		}
	}
	switch len(lines) {
	case 0:
		return b
	case 1:
		indent()
		b = append(b, "/** "...)
		b = append(b, lines[0]...)
		return append(b, " */\n"...)
	}
	indent()
	b = append(b, "/**\n"...)
	for _, l := range lines {
		indent()
		if l == "" {
			b = append(b, " *\n"...)
			continue
		}
		b = append(b, " * "...)
		b = append(b, l...)
		b = append(b, '\n')
	}
	indent()
	return append(b, " */\n"...)
}

// docLines splits a description into comment lines, keeping every line and
// its leading spaces; only trailing spaces and the blank lines around the
// text go. "*/" would end the comment early and is written as "*\/".
func docLines(text string) []string {
	if strings.IndexByte(text, '\n') < 0 && strings.IndexByte(text, '\r') < 0 {
		if t := escapeComment(strings.TrimRight(text, " \t")); t != "" {
			return []string{t}
		}
		return nil
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = escapeComment(strings.TrimRight(l, " \t"))
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func escapeComment(s string) string {
	return strings.ReplaceAll(s, "*/", "*\\/")
}

// appendPropertyKey writes an object key bare when it is an identifier and
// quoted otherwise.
func appendPropertyKey(b []byte, key string) []byte {
	if isIdentifier(key, true) {
		return append(b, key...)
	}
	return appendQuoted(b, key)
}

// isIdentifier reports whether s is an ASCII JavaScript identifier. Names
// outside ASCII are treated as non-identifiers: the quoted form is always
// valid, the bare form only for some code points.
func isIdentifier(s string, allowDollar bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case c == '$' && allowDollar:
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
