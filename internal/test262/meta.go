package test262

import (
	"errors"
	"strings"
)

// meta is a test file's frontmatter: the YAML between /*--- and ---*/.
// Only the keys the runner acts on are read.
type meta struct {
	includes []string
	flags    []string
	features []string
	negative *negative
}

// negative is what a negative test expects: the phase its error must arise
// in (parse, resolution or runtime) and the error's constructor name.
type negative struct {
	phase, errorType string
}

func (m meta) has(flag string) bool {
	for _, f := range m.flags {
		if f == flag {
			return true
		}
	}
	return false
}

var errNoFrontmatter = errors.New("no /*--- ---*/ frontmatter")

// parseMeta reads the frontmatter of a test's source. The frontmatter is a
// small YAML subset: scalar keys, lists in flow ([a, b]) or block (- a)
// style, and the negative mapping; description and info blocks are skipped.
func parseMeta(src string) (meta, error) {
	start := strings.Index(src, "/*---")
	end := strings.Index(src, "---*/")
	if start < 0 || end < start {
		return meta{}, errNoFrontmatter
	}
	lines := strings.Split(src[start+len("/*---"):end], "\n")
	var m meta
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			continue // a continuation of a key this runner does not read
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "includes", "flags", "features":
			var list []string
			if value == "" {
				list, i = blockList(lines, i+1)
			} else {
				list = flowList(value)
			}
			switch key {
			case "includes":
				m.includes = list
			case "flags":
				m.flags = list
			default:
				m.features = list
			}
		case "negative":
			n := &negative{}
			for i+1 < len(lines) && indented(lines[i+1]) {
				i++
				k, v, _ := strings.Cut(strings.TrimSpace(lines[i]), ":")
				switch strings.TrimSpace(k) {
				case "phase":
					n.phase = unquote(strings.TrimSpace(v))
				case "type":
					n.errorType = unquote(strings.TrimSpace(v))
				}
			}
			m.negative = n
		}
	}
	return m, nil
}

func indented(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t')
}

// flowList reads "[a, b, c]" (a comment after it is ignored).
func flowList(value string) []string {
	if i := strings.Index(value, "#"); i >= 0 {
		value = value[:i]
	}
	value = strings.TrimSpace(value)
	value = strings.TrimSuffix(strings.TrimPrefix(value, "["), "]")
	var list []string
	for _, item := range strings.Split(value, ",") {
		if item = unquote(strings.TrimSpace(item)); item != "" {
			list = append(list, item)
		}
	}
	return list
}

// blockList reads "- a" lines from lines[i] on; it returns the list and the
// index of its last line.
func blockList(lines []string, i int) ([]string, int) {
	var list []string
	for ; i < len(lines); i++ {
		item := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(item, "-") {
			if item == "" || strings.HasPrefix(item, "#") {
				continue
			}
			break
		}
		list = append(list, unquote(strings.TrimSpace(strings.TrimPrefix(item, "-"))))
	}
	return list, i - 1
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
