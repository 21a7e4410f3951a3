package catalog

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// summaryWidth is how many characters of a tool description's first line
// the catalog keeps (CAT-1, CAT-2). Search returns the full description.
const summaryWidth = 100

// entry is one tool rendered for the catalog and for search.
type entry struct {
	tool Tool
	// signature is the call form with its argument and result types,
	// e.g. tools.mcp__a__b(args: {...}): Promise<unknown>. Search returns it
	// as is (SEARCH-2).
	signature string
	// block is the catalog entry: the description line, then the signature,
	// ending in a newline. Its cost is priced as a whole (NFR-7).
	block string
	cost  int
	// note is the observed-result line shown after the block when the
	// budget leaves room once every signature that fits is seated ("" for
	// none), and noteCost its price.
	note     string
	noteCost int
	// params are the input's top-level parameter names and the values of
	// their enums (a method or action switch names what the tool does):
	// search reads them.
	params []string
}

// renderEntry renders one tool. It is pure: the same tool always gives the
// same bytes.
func renderEntry(t Tool, sc *scratch) *entry {
	b := sc.block[:0]
	if line := jsdocLine(t); line != "" {
		b = append(b, "/** "...)
		b = append(b, line...)
		b = append(b, " */\n"...)
	}
	sigStart := len(b)
	b = sc.appendSignature(b, toolCallee(t.Name), t.InputSchema, t.OutputSchema)
	sigEnd := len(b)
	b = append(b, '\n')
	sc.block = b
	block := string(b)
	// The entry keeps its own copy of the schemas: the cache compares them
	// with later pools, and the caller's slices may be reused.
	t.InputSchema, t.OutputSchema = bytes.Clone(t.InputSchema), bytes.Clone(t.OutputSchema)
	e := &entry{tool: t, signature: block[sigStart:sigEnd], block: block, cost: estimateTokensBytes(b),
		params: slices.Clone(sc.params)}
	if line := observedLine(t); line != "" {
		e.note = line + "\n"
		e.noteCost = estimateTokens(e.note)
	}
	return e
}

// observedLine is the catalog's line for what a tool was observed to
// return, "" when there is none or the tool declares its output.
func observedLine(t Tool) string {
	return observedLineFor(t, t.Observed)
}

func observedLineFor(t Tool, observed string) string {
	if observed == "" || len(t.OutputSchema) > 0 {
		return ""
	}
	// One line, whatever the text: a line break would end the comment.
	return observedPrefix + strings.Join(strings.Fields(observed), " ")
}

// signature renders callee(args: In): Promise<Out> with both types from the
// same renderer (CAT-1, D8). A tool without an input schema takes {}; one
// without an output schema returns Promise<unknown>.
func (sc *scratch) signature(callee string, input, output []byte) string {
	return string(sc.appendSignature(nil, callee, input, output))
}

func (sc *scratch) appendSignature(b []byte, callee string, input, output []byte) []byte {
	b = append(b, callee...)
	b = append(b, "(args: "...)
	sc.params = sc.params[:0]
	if len(input) > 0 {
		b = append(b, sc.schemaType(input)...)
		sc.params = appendParamWords(sc.params, sc.root)
	} else {
		b = append(b, "{}"...)
	}
	b = append(b, "): Promise<"...)
	if len(output) > 0 {
		b = append(b, sc.schemaType(output)...)
	} else {
		b = append(b, unknownType...)
	}
	return append(b, '>')
}

// scratch is the reusable working memory of one rendering goroutine.
type scratch struct {
	p     parser
	r     tsRenderer
	block []byte
	// root is the last document schemaType parsed (nil if it was not
	// JSON), valid until its next call; params are the parameter words of
	// the last input schema appendSignature rendered.
	root   *node
	params []string
}

// schemaType renders a whole schema document at the top level. A document
// that is not JSON renders as unknown: the tool still appears. The result is
// valid until the next call.
func (sc *scratch) schemaType(doc []byte) []byte {
	root, err := sc.p.parse(doc)
	sc.root = root
	if err != nil {
		return []byte(unknownType)
	}
	sc.r.reset(root)
	return sc.r.render(root)
}

// summaryLine is the description's summary (summaryText), cut to
// summaryWidth characters with an ellipsis (CAT-1).
// jsdocLine is the text of a tool's JSDoc line: its summary, then the tags
// that apply to it.
func jsdocLine(t Tool) string {
	line := summaryLine(t.Description)
	if !t.Task {
		return line
	}
	if line == "" {
		return taskTag
	}
	return line + " " + taskTag
}

// taskTag marks a tool whose calls may run as tasks on its server.
const taskTag = "@task"

func summaryLine(desc string) string {
	line := summaryText(desc)
	if len(line) > summaryWidth && utf8.RuneCountInString(line) > summaryWidth {
		n := 0
		for i := range line {
			if n == summaryWidth {
				line = strings.TrimRight(line[:i], " \t") + ellipsis
				break
			}
			n++
		}
	}
	return escapeComment(line)
}

// maxEnumWords bounds how many enum values of one parameter search reads,
// and maxEnumWordLen how long one may be: a method switch has a handful of
// short values, a list of every time zone says nothing about the tool.
const (
	maxEnumWords   = 64
	maxEnumWordLen = 40
)

// appendParamWords appends the top-level parameter names of an input schema
// and their short string enum values. They are copied: the parsed document
// is reused.
func appendParamWords(dst []string, schema *node) []string {
	props := schema.get("properties")
	if props == nil || props.kind != kindObject {
		return dst
	}
	for i, name := range props.keys {
		dst = append(dst, strings.Clone(name))
		enum := props.vals[i].get("enum")
		if enum == nil || enum.kind != kindArray || len(enum.items) > maxEnumWords {
			continue
		}
		for _, v := range enum.items {
			if v.kind == kindString && len(v.text) <= maxEnumWordLen {
				dst = append(dst, strings.Clone(v.text))
			}
		}
	}
	return dst
}
