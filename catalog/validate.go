package catalog

import "fmt"

// validate checks a value against the subset of JSON Schema the search
// schema uses (type, properties, required, additionalProperties). It returns
// a short model-visible description of the first mismatch, or "".
func validate(v, schema *node) string {
	return validateAt(v, schema, "")
}

func validateAt(v, s *node, path string) string {
	if s == nil || s.kind != kindObject {
		return ""
	}
	if t, ok := s.getString("type"); ok && !hasType(v, t) {
		if path == "" {
			return notObjectText
		}
		return fmt.Sprintf(wrongTypeFormat, path, t)
	}
	if v.kind != kindObject {
		return ""
	}
	props := s.get("properties")
	if req := s.get("required"); req != nil && req.kind == kindArray {
		for _, r := range req.items {
			if r.kind == kindString && v.get(r.text) == nil {
				return fmt.Sprintf(missingFieldFormat, quoted(r.text))
			}
		}
	}
	closed := false
	if ap := s.get("additionalProperties"); ap != nil && ap.kind == kindBool && ap.text == "false" {
		closed = true
	}
	for i, key := range v.keys {
		p := props.get(key)
		if p == nil {
			if closed {
				return fmt.Sprintf(unknownFieldFormat, quoted(key))
			}
			continue
		}
		if problem := validateAt(v.vals[i], p, quoted(key)); problem != "" {
			return problem
		}
	}
	return ""
}

func hasType(v *node, t string) bool {
	switch t {
	case "object":
		return v.kind == kindObject
	case "array":
		return v.kind == kindArray
	case "string":
		return v.kind == kindString
	case "number":
		return v.kind == kindNumber
	case "integer":
		return v.kind == kindNumber && isIntegerLiteral(v.text)
	case "boolean":
		return v.kind == kindBool
	case "null":
		return v.kind == kindNull
	}
	return true
}

func isIntegerLiteral(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}
