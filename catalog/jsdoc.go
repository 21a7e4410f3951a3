package catalog

import (
	"slices"
	"strings"
)

// This file writes the JSDoc comments of object properties: the schema's
// own text, verbatim, and its constraints as tags (CAT-1, EDGE-23).

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
