package declare

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/mcpexec/mcpexec/toolpool"
)

// MaxFlatNameLen is the longest tool name the major model APIs accept.
const MaxFlatNameLen = 64

// ValidFlatName reports whether the model APIs accept name as a tool name:
// letters, digits, '_' and '-', one to MaxFlatNameLen of them
// (^[a-zA-Z0-9_-]{1,64}$).
func ValidFlatName(name string) bool {
	if name == "" || len(name) > MaxFlatNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !flatNameByte(name[i]) {
			return false
		}
	}
	return true
}

func flatNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// FlatNames maps the MCP tools of a pool to the names their flat
// declarations carry, and back. A tool whose name the model APIs accept is
// declared under it. Any other (lark's 80-character names, names with dots)
// is declared under an alias: the name with every other character made
// '_', and when that is too long or taken, cut and ended with a hash of the
// real name. An alias depends only on the pool's names, never on their
// order or on the request, so it stays the same from one request to the
// next; and it never equals another tool's declared name.
//
// Only the declaration is renamed: calls map back to the real name before
// the funnel, so permission rules, prompts and the saved "don't ask again"
// rules all speak of the real name.
type FlatNames struct {
	declared map[string]string // real → declared, for aliased tools only
	real     map[string]string // declared → real, for aliased tools only
}

// FlatNamesOf maps every tool of snap (nil for none).
func FlatNamesOf(snap *toolpool.Snapshot) *FlatNames {
	var names []string
	if snap != nil {
		snap.Each(func(t toolpool.Tool) bool {
			names = append(names, t.Name)
			return true
		})
	}
	return NewFlatNames(names)
}

// NewFlatNames maps the given tool names.
func NewFlatNames(names []string) *FlatNames {
	f := &FlatNames{declared: map[string]string{}, real: map[string]string{}}
	taken := map[string]bool{} // declared names so far
	var aliased []string
	for _, n := range names {
		if ValidFlatName(n) {
			taken[n] = true
		} else {
			aliased = append(aliased, n)
		}
	}
	// Readable aliases first, for the names that have one free; the sort
	// makes the result independent of the pool's order.
	slices.Sort(aliased)
	aliased = slices.Compact(aliased)
	counts := map[string]int{}
	for _, n := range aliased {
		counts[readableAlias(n)]++
	}
	var hashed []string
	for _, n := range aliased {
		a := readableAlias(n)
		if a == "" || len(a) > MaxFlatNameLen || counts[a] > 1 || taken[a] {
			hashed = append(hashed, n)
			continue
		}
		f.add(n, a, taken)
	}
	for _, n := range hashed {
		f.add(n, hashedAlias(n, taken), taken)
	}
	return f
}

func (f *FlatNames) add(real, alias string, taken map[string]bool) {
	f.declared[real], f.real[alias] = alias, real
	taken[alias] = true
}

// Declared returns the name the tool is declared under.
func (f *FlatNames) Declared(real string) string {
	if a, ok := f.declared[real]; ok {
		return a
	}
	return real
}

// Real returns the tool a declared name stands for: the real name for an
// alias, the name itself otherwise.
func (f *FlatNames) Real(declared string) string {
	if r, ok := f.real[declared]; ok {
		return r
	}
	return declared
}

// readableAlias is name with every character the model APIs reject made
// '_' (possibly still too long).
func readableAlias(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && flatNameByte(byte(r)) {
			return r
		}
		return '_'
	}, name)
}

// hashedAlias is the readable alias cut to fit, ended with '_' and the
// start of the real name's SHA-256 in hex: longer if that is taken.
func hashedAlias(name string, taken map[string]bool) string {
	sum := sha256.Sum256([]byte(name))
	digest := hex.EncodeToString(sum[:])
	readable := readableAlias(name)
	var alias string
	for n := 8; n <= 32; n *= 2 {
		keep := min(len(readable), MaxFlatNameLen-1-n)
		alias = readable[:keep] + "_" + digest[:n]
		if !taken[alias] {
			break
		}
	}
	return alias
}
