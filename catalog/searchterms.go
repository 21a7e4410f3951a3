package catalog

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// appendTerms appends the search terms of text to dst: its words (see
// eachWord) reduced to a light stem (stem). Tool names, server names,
// parameter names and prose all go through it, so create_issue,
// createIssue, create-issue and "creating issues" share their terms.
func appendTerms(dst []string, text string) []string {
	eachWord(text, func(w string) { dst = append(dst, stem(strings.ToLower(w))) })
	return dst
}

// eachWord calls f with every word of text, as written: text split at every
// character that is not a letter or digit and at camelCase humps
// (getFileContents, HTTPServer).
func eachWord(text string, f func(word string)) {
	start := -1 // byte offset of the word being read, or -1
	var prev rune
	flush := func(end int) {
		if start >= 0 {
			f(text[start:end])
			start = -1
		}
	}
	for i, r := range text {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			prev = r
			continue
		}
		if start >= 0 && humpAt(text, i, prev, r) {
			flush(i)
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	flush(len(text))
}

// humpAt reports whether a camelCase word starts at i, where r follows
// prev: a lower-case letter or digit followed by an upper-case one
// (fileContents), or the last capital of a run followed by a lower-case
// letter (HTTPServer splits before Server).
func humpAt(text string, i int, prev, r rune) bool {
	if !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	if unicode.IsUpper(prev) {
		next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		return unicode.IsLower(next)
	}
	return false
}

// stem reduces an English word to a light stem so that plural, -ing and -ed
// forms meet their base: issues and issue, entries and entry, creating,
// created and create all give one term. It is deliberately crude (no
// dictionary): both the index and the query go through it, so it only has
// to be consistent, and it leaves short words alone.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case n > 4 && strings.HasSuffix(w, "es") && sibilantEnd(w[:n-2]):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	case n > 6 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:n-2])
	}
	// A final e goes, so that create, creating and created meet at creat.
	if len(w) > 3 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	return w
}

// sibilantEnd reports whether w ends in s, x, z, ch or sh: the words whose
// plural adds -es (boxes, matches, pushes).
func sibilantEnd(w string) bool {
	return strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "z") ||
		strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh")
}

// undouble drops one of a doubled final consonant left by removing -ing or
// -ed (running, mapped), keeping ll, ss and zz which belong to the word
// (polling, passed).
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords are the words a query carries for grammar, not meaning ("send a
// message to the channel"). They are left out of queries only: a tool
// named get_me keeps its "me", and a query made of nothing else keeps them.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the to of in on at for from by with into onto about
		and or but not no is are was were be been being it its this that these those there
		i me my we our you your he she they them their some any all each every
		can could should would will shall may might must do does did
		please want need like how what which who whom whose where when why
		using use via as so than then also just only`) {
		m[stem(w)] = true
	}
	return m
}()
