package pool

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ExpandVars replaces ${NAME} and ${NAME:-default} in s with values from
// lookup (os.LookupEnv in a servers file), the convention of the .mcp.json
// files people already have. ${NAME:-default} takes default when NAME is
// unset or empty; ${NAME} with NAME unset is an error naming it, so a
// missing secret never turns into an empty header that a server rejects for
// another reason. "$$" is a literal "$"; a "$" not followed by "{" is kept
// as it is.
func ExpandVars(s string, lookup func(name string) (string, bool)) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var out strings.Builder
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			out.WriteString(s)
			return out.String(), nil
		}
		out.WriteString(s[:i])
		s = s[i:]
		switch {
		case strings.HasPrefix(s, "$$"):
			out.WriteByte('$')
			s = s[2:]
			continue
		case !strings.HasPrefix(s, "${"):
			out.WriteByte('$')
			s = s[1:]
			continue
		}
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", fmt.Errorf("%q has a ${ without its closing }", s)
		}
		expr := s[2:end]
		s = s[end+1:]
		name, fallback, hasDefault := strings.Cut(expr, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("${%s} is not a variable reference (want ${NAME} or ${NAME:-default})", expr)
		}
		value, set := lookup(name)
		switch {
		case hasDefault && value == "":
			value = fallback
		case !set:
			return "", fmt.Errorf("environment variable %s is not set (write ${%s:-default} to give it a default)", name, name)
		}
		out.WriteString(value)
	}
}

func validVarName(name string) bool {
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// expandEntry expands the variables of every field that may hold them:
// command, args, env and headers values, url and cwd. The error names the
// field.
func expandEntry(e *fileEntry, lookup func(string) (string, bool)) error {
	one := func(field string, s *string) error {
		v, err := ExpandVars(*s, lookup)
		if err != nil {
			return fmt.Errorf("%s: %w", field, err)
		}
		*s = v
		return nil
	}
	if err := one("command", &e.Command); err != nil {
		return err
	}
	for i := range e.Args {
		if err := one(fmt.Sprintf("args[%d]", i), &e.Args[i]); err != nil {
			return err
		}
	}
	for _, m := range []struct {
		key    string
		values map[string]string
	}{{"env", e.Env}, {"headers", e.Headers}} {
		for _, k := range slices.Sorted(maps.Keys(m.values)) {
			v := m.values[k]
			if err := one(fmt.Sprintf("%s.%s", m.key, k), &v); err != nil {
				return err
			}
			m.values[k] = v
		}
	}
	if err := one("url", &e.URL); err != nil {
		return err
	}
	return one("cwd", &e.Cwd)
}
