package jsplatform

import "testing"

// TestRegExpMatchesNode runs regular expressions as models write them
// (Unicode property escapes, the u and v flags, match indices) and compares
// each answer with Node 22's, recorded in testdata/regexp_node.json by
// testdata/gen_regexp_node.js: a property escape never quietly matches
// something else.
func TestRegExpMatchesNode(t *testing.T) {
	checkMatchesNode(t, "testdata/regexp_node.json")
}
