package catalog

// How scripts reach tools: the call forms the catalog and search write
// (CAT-1, D7), and the keys of object types.

// CallForm is how a script reaches the tool named name, as the catalog and
// search write it: tools.name when the name is an identifier, tools["name"]
// otherwise (CAT-1).
func CallForm(name string) string { return toolCallee(name) }

// SearchCallForm is how a script reaches search: tools["$codemode"].search,
// built from SearchNamespace and SearchMethod. Text that points a script to
// search should use it rather than spell the form out.
func SearchCallForm() string { return searchCallee() }

// toolCallee is how a script reaches a tool: tools.name when the name is an
// identifier, tools["name"] otherwise (a '-' or '.' would parse as an
// operator or a property chain).
func toolCallee(name string) string {
	if isIdentifier(name, true) {
		return "tools." + name
	}
	return "tools[" + quoted(name) + "]"
}

// searchCallee is tools["$codemode"].search: the reserved namespace is
// always written quoted, as the Exec description teaches it (D7), though
// "$codemode" would also be a valid identifier.
func searchCallee() string {
	method := "." + SearchMethod
	if !isIdentifier(SearchMethod, false) {
		method = "[" + quoted(SearchMethod) + "]"
	}
	return "tools[" + quoted(SearchNamespace) + "]" + method
}

// appendPropertyKey writes an object key bare when it is an identifier and
// quoted otherwise.
func appendPropertyKey(b []byte, key string) []byte {
	if isIdentifier(key, true) {
		return append(b, key...)
	}
	return appendQuoted(b, key)
}

// isIdentifier reports whether s is an ASCII JavaScript identifier ($ counts
// only when allowDollar is set). Names outside ASCII are treated as
// non-identifiers: the quoted form is always valid, the bare form only for
// some code points.
func isIdentifier(s string, allowDollar bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case c == '$' && allowDollar:
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
