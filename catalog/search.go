package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// SearchResult is one tool found by search: everything a script needs to
// call it (SEARCH-2). The description is complete, not the catalog's first
// line, and the signature is the catalog's.
type SearchResult struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Signature   string `json:"signature"`
}

// ErrSearchArgs matches (errors.Is) every error Search returns for
// arguments that do not match SearchSchema.
var ErrSearchArgs = errors.New("search arguments do not match the search schema")

// argsError is a rejected search call. Its message is exactly the
// model-visible text, with no Go-side prefix.
type argsError struct{ msg string }

func (e *argsError) Error() string        { return e.msg }
func (e *argsError) Is(target error) bool { return target == ErrSearchArgs }

// SearchSchema returns the search entry's input schema. The catalog's call
// form, Search's validation and its shape error are all derived from it
// (NFR-4, SEARCH-8).
func SearchSchema() json.RawMessage {
	return json.RawMessage(searchSchemaJSON)
}

// SearchOutputSchema returns the schema of what a search call resolves to:
// an array of SearchResult objects.
func SearchOutputSchema() json.RawMessage {
	return json.RawMessage(searchOutputSchemaJSON)
}

// searchSchemaNode is the parsed input schema, used for validation.
var searchSchemaNode = sync.OnceValue(func() *node {
	n, err := parseJSON([]byte(searchSchemaJSON))
	if err != nil {
		panic("catalog: search schema is not JSON: " + err.Error())
	}
	return n
})

// searchSignature is the search entry's signature, rendered from its schemas
// by the renderer every tool goes through.
var searchSignature = sync.OnceValue(func() string {
	var sc scratch
	return sc.signature(searchCallee(), []byte(searchSchemaJSON), []byte(searchOutputSchemaJSON))
})

// SearchSignature returns the search entry's call form with its argument and
// result types, exactly as a truncated catalog shows it.
func SearchSignature() string { return searchSignature() }

// Index answers searches over one pool snapshot: the whole pool, whatever
// the catalog showed (SEARCH-1, SEARCH-4). It is immutable and safe for
// concurrent use.
type Index struct {
	items []indexItem // by name
}

type indexItem struct {
	result    SearchResult
	nameLower string
	toolLower string // the name after mcp__<server>__
	descLower string
}

// IndexOption configures NewIndex.
type IndexOption func(*indexConfig)

type indexConfig struct{ renderer *Renderer }

// WithRenderer makes NewIndex take signatures from r's cache of rendered
// blocks (and fill it), so a catalog and an index of the same pool render
// each tool once.
func WithRenderer(r *Renderer) IndexOption {
	return func(c *indexConfig) { c.renderer = r }
}

// NewIndex builds the search index of a pool.
func NewIndex(tools []Tool, opts ...IndexOption) *Index {
	var cfg indexConfig
	for _, o := range opts {
		o(&cfg)
	}
	var entries []*entry
	if cfg.renderer != nil {
		entries = cfg.renderer.entries(tools)
	} else {
		entries = make([]*entry, len(tools))
		idx := make([]int, len(tools))
		for i := range idx {
			idx[i] = i
		}
		renderAll(tools, idx, entries)
	}
	items := make([]indexItem, len(entries))
	for i, e := range entries {
		name := e.tool.Name
		tool := name
		if parts := strings.SplitN(name, "__", 3); len(parts) == 3 {
			tool = parts[2]
		}
		items[i] = indexItem{
			result:    SearchResult{Name: name, Description: e.tool.Description, Signature: e.signature},
			nameLower: strings.ToLower(name),
			toolLower: strings.ToLower(tool),
			descLower: strings.ToLower(e.tool.Description),
		}
	}
	// By name; a name listed twice is ordered by its content, so the order
	// never depends on the pool's.
	sort.Slice(items, func(i, j int) bool {
		a, b := items[i].result, items[j].result
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Signature != b.Signature {
			return a.Signature < b.Signature
		}
		return a.Description < b.Description
	})
	return &Index{items: items}
}

// Search runs one search. args is the script's argument object as JSON; it
// must match SearchSchema, otherwise the error (model-visible) shows the
// expected call form (SEARCH-9, EDGE-24). The result is never nil.
//
// Every word of the query must occur in the tool's name or description,
// case-insensitively (SEARCH-2). An empty or omitted query lists the whole
// pool by name (SEARCH-3). Results rank an exact name first, then tools
// whose name holds every word, then the rest; ties by name.
func (ix *Index) Search(args json.RawMessage) ([]SearchResult, error) {
	query, err := searchQuery(args)
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(strings.TrimSpace(query))
	words := strings.Fields(q)
	type hit struct {
		rank int
		item *indexItem
	}
	hits := make([]hit, 0, 16)
	for i := range ix.items {
		it := &ix.items[i]
		if len(words) == 0 {
			hits = append(hits, hit{0, it})
			continue
		}
		if it.nameLower == q || it.toolLower == q {
			hits = append(hits, hit{0, it})
			continue
		}
		inName, inAny := true, true
		for _, w := range words {
			if strings.Contains(it.nameLower, w) {
				continue
			}
			inName = false
			if !strings.Contains(it.descLower, w) {
				inAny = false
				break
			}
		}
		switch {
		case inName:
			hits = append(hits, hit{1, it})
		case inAny:
			hits = append(hits, hit{2, it})
		}
	}
	// items are in name order, so a stable sort by rank keeps ties by name.
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].rank < hits[j].rank })
	out := make([]SearchResult, len(hits))
	for i, h := range hits {
		out[i] = h.item.result
	}
	return out, nil
}

// searchQuery validates args against the search schema and returns the
// query ("" when omitted).
func searchQuery(args json.RawMessage) (string, error) {
	n, err := parseJSON(args)
	if err != nil || n.kind != kindObject {
		return "", &argsError{fmt.Sprintf(searchNotObjectFormat, searchSignature())}
	}
	if problem := validate(n, searchSchemaNode()); problem != "" {
		return "", &argsError{fmt.Sprintf(searchShapeFormat, problem, searchSignature())}
	}
	q, _ := n.getString("query")
	return q, nil
}
