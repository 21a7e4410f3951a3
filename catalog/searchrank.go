package catalog

import (
	"math"
	"slices"
	"strings"
)

// searchField is one part of a tool that search reads. A word found in the
// tool's name says more about the tool than the same word somewhere in a
// long description, so each field has its own weight (BM25F).
type searchField uint8

const (
	fieldName        searchField = iota // the tool's name after mcp__<server>__
	fieldServer                         // the server's name
	fieldSummary                        // the summary line the catalog shows
	fieldDescription                    // the whole description
	fieldParams                         // input parameter names and their enum values
	numFields
)

// fieldTuning is a field's weight and how strongly its length dampens a
// hit (BM25's b: 0 ignores length, 1 normalises fully).
type fieldTuning struct{ weight, b float64 }

var fieldTunings = [numFields]fieldTuning{
	fieldName:        {weight: 4, b: 0.3},
	fieldServer:      {weight: 1, b: 0},
	fieldSummary:     {weight: 1.5, b: 0.5},
	fieldDescription: {weight: 1, b: 0.75},
	fieldParams:      {weight: 0.5, b: 0.5},
}

// surfaceWeight is what a query word's exact form adds to its stem when a
// tool writes it that way too.
const surfaceWeight = 0.3

// bm25K1 saturates repeated hits of one term: the tenth mention of "issue"
// adds little to the first.
const bm25K1 = 1.2

// weakHitRatio is the share of the best score under which a tool that
// also carries fewer of the query's words than the best-matching tool is
// left out of the results.
const weakHitRatio = 0.25

// posting is one tool's term frequencies, per field, for one term.
type posting struct {
	doc int32
	tf  [numFields]uint16
}

// termIndex is the inverted index of a pool: for each term, the tools that
// carry it and how often in each field. Terms are stems; a word that its
// stem changes is also indexed as written (surface), so a query can prefer
// the exact form.
type termIndex struct {
	stems    map[string]int32 // stem → term id
	surfaces map[string]int32 // lowercased word as written → term id
	postings [][]posting      // by term id, in tool order
	lengths  [][numFields]float32
	avg      [numFields]float64 // average terms per field
}

// fieldTexts are the texts of one tool, per field.
type fieldTexts [numFields][]string

// newTermIndex indexes docs (one fieldTexts per tool, in index order).
func newTermIndex(docs []fieldTexts) *termIndex {
	ti := &termIndex{stems: map[string]int32{}, surfaces: map[string]int32{}, lengths: make([][numFields]float32, len(docs))}
	var (
		counts  [][numFields]uint16 // by term id, for the tool being read
		touched []int32             // term ids counted for it
		total   [numFields]float64
	)
	count := func(id int32, f int) {
		if int(id) >= len(counts) {
			counts = append(counts, make([][numFields]uint16, int(id)+1-len(counts))...)
		}
		c := &counts[id]
		if *c == ([numFields]uint16{}) {
			touched = append(touched, id)
		}
		if c[f] < math.MaxUint16 {
			c[f]++
		}
	}
	// Most words recur across a pool's descriptions: each is lowercased and
	// stemmed once.
	type wordIDs struct{ stem, surface int32 }
	seen := map[string]wordIDs{}
	for d, doc := range docs {
		for f, texts := range doc {
			n := 0
			for _, text := range texts {
				eachWord(text, func(raw string) {
					n++
					ids, ok := seen[raw]
					if !ok {
						w := strings.ToLower(raw)
						s := stem(w)
						ids = wordIDs{ti.intern(ti.stems, s), -1}
						if s != w {
							ids.surface = ti.intern(ti.surfaces, w)
						}
						seen[raw] = ids
					}
					count(ids.stem, f)
					if ids.surface >= 0 {
						count(ids.surface, f)
					}
				})
			}
			ti.lengths[d][f] = float32(n)
			total[f] += float64(n)
		}
		for _, id := range touched {
			ti.postings[id] = append(ti.postings[id], posting{doc: int32(d), tf: counts[id]})
			counts[id] = [numFields]uint16{}
		}
		touched = touched[:0]
	}
	if n := float64(len(docs)); n > 0 {
		for f := range total {
			ti.avg[f] = total[f] / n
		}
	}
	return ti
}

// intern returns t's id in m, adding it if new.
func (ti *termIndex) intern(m map[string]int32, t string) int32 {
	id, ok := m[t]
	if !ok {
		id = int32(len(ti.postings))
		m[t] = id
		ti.postings = append(ti.postings, nil)
	}
	return id
}

// lookup returns t's postings in m, or nil.
func (ti *termIndex) lookup(m map[string]int32, t string) []posting {
	if id, ok := m[t]; ok {
		return ti.postings[id]
	}
	return nil
}

// idf is BM25's inverse document frequency of a term found in df of n tools.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// termScore is one term's BM25F contribution for one tool.
func (ti *termIndex) termScore(p posting, idf float64) float64 {
	var tf float64
	for f, n := range p.tf {
		if n == 0 {
			continue
		}
		tune := fieldTunings[f]
		norm := 1.0
		if ti.avg[f] > 0 {
			norm = 1 - tune.b + tune.b*float64(ti.lengths[p.doc][f])/ti.avg[f]
		}
		tf += tune.weight * float64(n) / norm
	}
	return idf * tf / (bm25K1 + tf)
}

// queryWord is one word of a query with what may stand for it: the word's
// term, its synonyms (counting synonymWeight) and the compound it makes with
// the next word when the pool writes them as one ("roll back": rollback).
// A tool scores by the best of them, so a tool saying both delete and
// remove does not count the word twice.
type queryWord []weightedTerm

type weightedTerm struct {
	term     string // the stem; empty for a word as written
	postings []posting
	weight   float64
}

// scores returns every tool's relevance to the query, the sum over its
// words of BM25F, and how many of the query's words each tool carries.
func (ti *termIndex) scores(words []queryWord) ([]float64, []int) {
	n := len(ti.lengths)
	total := make([]float64, n)
	matched := make([]int, n)
	best := make([]float64, n) // this word's best score per tool
	var touched []int32
	for _, w := range words {
		for _, t := range w {
			ti.scoreInto(best, &touched, t.postings, t.weight)
		}
		for _, d := range touched {
			total[d] += best[d]
			best[d] = 0
			if w[0].term != "" { // a word as written only adds to its stem
				matched[d]++
			}
		}
		touched = touched[:0]
	}
	return total, matched
}

// scoreInto raises best[d] to the score of a term, times weight, for every
// tool d in its postings, noting in touched the tools it scores first.
func (ti *termIndex) scoreInto(best []float64, touched *[]int32, list []posting, weight float64) {
	if len(list) == 0 {
		return
	}
	w := weight * idf(len(ti.lengths), len(list))
	for _, p := range list {
		s := ti.termScore(p, w)
		if best[p.doc] == 0 {
			*touched = append(*touched, p.doc)
		}
		best[p.doc] = max(best[p.doc], s)
	}
}

// queryTerms are the terms a query searches for: its words as terms, each
// once, without the grammar words unless the query has nothing else.
func queryTerms(query string) []string {
	all := appendTerms(nil, query)
	var content []string
	for _, t := range all {
		if !stopWords[t] && !slices.Contains(content, t) {
			content = append(content, t)
		}
	}
	if len(content) == 0 {
		for _, t := range all {
			if !slices.Contains(content, t) {
				content = append(content, t)
			}
		}
	}
	return content
}

// queryWords turns a query's terms into words to score: each term with its
// synonyms and with the compound it makes with the next word of the query
// when the pool has that compound; then the query's words that stemming
// changed, as written.
func (ti *termIndex) queryWords(terms []string, query string) []queryWord {
	words := make([]queryWord, len(terms))
	for i, t := range terms {
		words[i] = queryWord{{t, ti.lookup(ti.stems, t), 1}}
		for _, s := range synonyms[t] {
			words[i] = append(words[i], weightedTerm{s, ti.lookup(ti.stems, s), synonymWeight})
		}
	}
	raw := strings.FieldsFunc(query, func(r rune) bool { return !isWordRune(r) })
	for i := 1; i < len(raw); i++ {
		first := slices.Index(terms, stem(strings.ToLower(raw[i-1])))
		compound := stem(strings.ToLower(raw[i-1] + raw[i]))
		if list := ti.lookup(ti.stems, compound); first >= 0 && list != nil && !slices.Contains(terms, compound) {
			words[first] = append(words[first], weightedTerm{compound, list, 1})
		}
	}
	var seen []string
	eachWord(query, func(raw string) {
		w := strings.ToLower(raw)
		s := stem(w)
		if s == w || stopWords[s] || slices.Contains(seen, w) {
			return
		}
		seen = append(seen, w)
		if list := ti.lookup(ti.surfaces, w); list != nil {
			words = append(words, queryWord{{"", list, surfaceWeight}})
		}
	})
	return words
}

// termKey is a set of terms as one comparable string: a query names a tool
// nearly exactly when its terms are the terms of the tool's name, in any
// order ("issue create" for create_issue).
func termKey(terms []string) string {
	set := slices.Clone(terms)
	slices.Sort(set)
	return strings.Join(slices.Compact(set), " ")
}

// nameCoverageWeight is how much a tool's relevance grows when the query
// covers its whole name: create_directory answers "make a directory"
// better than edit_file, whose description happens to say "make".
const nameCoverageWeight = 1.0

// nameCoverage is the share of a tool's name terms that the query's words
// carry, each at the weight it has in the query (a synonym counts
// synonymWeight).
func nameCoverage(name []string, words []queryWord) float64 {
	if len(name) == 0 {
		return 0
	}
	covered := 0.0
	for _, t := range name {
		best := 0.0
		for _, w := range words {
			for _, wt := range w {
				if wt.term == t {
					best = max(best, wt.weight)
				}
			}
		}
		covered += best
	}
	return covered / float64(len(name))
}
