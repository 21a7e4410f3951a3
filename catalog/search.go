package catalog

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
// the catalog showed (SEARCH-1, SEARCH-4). It is built once per snapshot,
// is immutable and safe for concurrent use.
type Index struct {
	items    []indexItem // by name
	terms    *termIndex  // over items, in the same order
	observed func(name string) string
}

type indexItem struct {
	entry     *entry
	nameLower string
	toolLower string // the name after mcp__<server>__
	// nameKey and serverNameKey are the terms of the tool's name, without
	// and with its server's, as termKeys: a query with exactly these terms
	// names the tool.
	nameKey       string
	serverNameKey string
	// nameTerms are the distinct terms of the tool's name.
	nameTerms []string
}

// IndexOption configures NewIndex.
type IndexOption func(*indexConfig)

type indexConfig struct {
	renderer *Renderer
	observed func(name string) string
}

// WithObserved makes search results carry what observed(name) says a tool
// was seen to return, asked at each search, so a search sees what calls
// made since the index was built (earlier in the same script) taught.
// Without it, results carry each Tool's Observed.
func WithObserved(observed func(name string) string) IndexOption {
	return func(c *indexConfig) { c.observed = observed }
}

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
	// By name; a name listed twice is ordered by its content, so the order
	// never depends on the pool's.
	slices.SortFunc(entries, func(a, b *entry) int {
		return cmp.Or(cmp.Compare(a.tool.Name, b.tool.Name), cmp.Compare(a.signature, b.signature),
			cmp.Compare(a.tool.Description, b.tool.Description))
	})
	items := make([]indexItem, len(entries))
	docs := make([]fieldTexts, len(entries))
	for i, e := range entries {
		server, tool := splitToolName(e.tool.Name)
		nameTerms := appendTerms(nil, tool)
		items[i] = indexItem{
			entry:         e,
			nameLower:     strings.ToLower(e.tool.Name),
			toolLower:     strings.ToLower(tool),
			nameKey:       termKey(nameTerms),
			serverNameKey: termKey(appendTerms(nameTerms, server)),
			nameTerms:     slices.Compact(slices.Sorted(slices.Values(nameTerms))),
		}
		docs[i] = fieldTexts{
			fieldName:        {tool},
			fieldServer:      {server},
			fieldSummary:     {summaryText(e.tool.Description)},
			fieldDescription: {e.tool.Description},
			fieldParams:      e.params,
		}
	}
	return &Index{items: items, terms: newTermIndex(docs), observed: cfg.observed}
}

// splitToolName splits mcp__<server>__<tool> into its server and tool; a
// name of another form is all tool.
func splitToolName(name string) (server, tool string) {
	if parts := strings.SplitN(name, "__", 3); len(parts) == 3 {
		return parts[1], parts[2]
	}
	return "", name
}

// Search runs one search. args is the script's argument object as JSON; it
// must match SearchSchema, otherwise the error (model-visible) shows the
// expected call form (SEARCH-9, EDGE-24). The result is never nil.
//
// An empty or omitted query lists the whole pool by name (SEARCH-3).
// Otherwise the results are ranked: a tool whose name is the query (case
// aside) first, then tools whose name is made of exactly the query's words,
// then every tool matching any of the query's words in its name, server,
// description (case-insensitively, SEARCH-2) or parameters, by relevance
// (BM25F over those fields, see searchrank.go); ties by name. A tool that
// carries fewer of the query's words than the best-matching tool and
// scores far below the best is left out; a one-word query keeps every
// tool that carries the word.
func (ix *Index) Search(args json.RawMessage) ([]SearchResult, error) {
	query, err := searchQuery(args)
	if err != nil {
		return nil, err
	}
	query = strings.TrimSpace(query)
	if query == "" {
		out := make([]SearchResult, len(ix.items))
		for i := range ix.items {
			out[i] = ix.result(i)
		}
		return out, nil
	}
	hits := ix.rank(query)
	out := make([]SearchResult, len(hits))
	for i, h := range hits {
		out[i] = ix.result(h.item)
	}
	return out, nil
}

// result builds the entry search returns for one indexed tool.
func (ix *Index) result(i int) SearchResult {
	e := ix.items[i].entry
	sig := e.signature
	observed := e.tool.Observed
	if ix.observed != nil {
		observed = ix.observed(e.tool.Name)
	}
	// The signature stays the declared one; the observed note follows on
	// its own line, as in the catalog.
	if line := observedLineFor(e.tool, observed); line != "" {
		sig += "\n" + line
	}
	return SearchResult{Name: e.tool.Name, Description: e.tool.Description, Signature: sig}
}

// nameMatch is how closely a query names a tool: the best tier sorts
// first.
type nameMatch uint8

const (
	nameExact  nameMatch = iota // the query is the full name or the tool's name
	nameTerms                   // the query's terms are the name's terms
	nameNoMore                  // relevance alone
)

type hit struct {
	item  int
	match nameMatch
	score float64
}

// maxQueryBytes is how much of a query search reads. A request for a tool
// is a few words; a script passing megabytes must not hold the host.
const maxQueryBytes = 1 << 10

// rank returns the tools that match query, best first.
func (ix *Index) rank(query string) []hit {
	if len(query) > maxQueryBytes {
		query = query[:maxQueryBytes]
	}
	lower := strings.ToLower(query)
	terms := queryTerms(query)
	keys := [2]string{termKey(terms), termKey(appendTerms(nil, query))}
	words := ix.terms.queryWords(terms, query)
	scores, matched := ix.terms.scores(words)
	var hits []hit
	mostMatched, best := 0, 0.0
	for i := range ix.items {
		it := &ix.items[i]
		h := hit{item: i, match: nameNoMore, score: scores[i] * (1 + nameCoverageWeight*nameCoverage(it.nameTerms, words))}
		switch {
		case it.nameLower == lower || it.toolLower == lower:
			h.match = nameExact
		case slices.Contains(keys[:], it.nameKey) || slices.Contains(keys[:], it.serverNameKey):
			h.match = nameTerms
		case h.score == 0:
			continue
		}
		mostMatched = max(mostMatched, matched[i])
		best = max(best, h.score)
		hits = append(hits, h)
	}
	// A tool that carries fewer words than the best-matching tool and
	// scores far below the best is noise: "create" alone for "create
	// issue" (nine hundred tools over the fixtures, megabytes of
	// signatures). One carrying only the query's rarest word ("balance" for
	// "check the account balance") scores high enough to stay.
	hits = slices.DeleteFunc(hits, func(h hit) bool {
		return h.match == nameNoMore && matched[h.item] < mostMatched && h.score < weakHitRatio*best
	})
	// items are in name order, so a stable sort keeps ties by name.
	slices.SortStableFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.match, b.match), cmp.Compare(b.score, a.score))
	})
	return hits
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
