package catalog

// keywords are the members of a schema object the renderer reads, found in
// one pass over its members instead of one lookup each. Later duplicates win,
// as in node.get.
type keywords struct {
	ref, constant, enum, typ                             *node
	properties, additionalProperties, patternProperties  *node
	items, prefixItems, anyOf, oneOf, allOf              *node
	nullable, required, description, title               *node
	deprecated, format, defaultValue                     *node
	minimum, exclusiveMinimum, maximum, exclusiveMaximum *node
	minLength, maxLength, pattern, minItems, maxItems    *node
}

// schemaKeywords collects the keywords of s; a nil or non-object s has none.
func (s *node) schemaKeywords() keywords {
	var k keywords
	if s == nil || s.kind != kindObject {
		return k
	}
	for i, key := range s.keys {
		v := s.vals[i]
		switch key {
		case "$ref":
			k.ref = v
		case "const":
			k.constant = v
		case "enum":
			k.enum = v
		case "type":
			k.typ = v
		case "properties":
			k.properties = v
		case "additionalProperties":
			k.additionalProperties = v
		case "patternProperties":
			k.patternProperties = v
		case "items":
			k.items = v
		case "prefixItems":
			k.prefixItems = v
		case "anyOf":
			k.anyOf = v
		case "oneOf":
			k.oneOf = v
		case "allOf":
			k.allOf = v
		case "nullable":
			k.nullable = v
		case "required":
			k.required = v
		case "description":
			k.description = v
		case "title":
			k.title = v
		case "deprecated":
			k.deprecated = v
		case "format":
			k.format = v
		case "default":
			k.defaultValue = v
		case "minimum":
			k.minimum = v
		case "exclusiveMinimum":
			k.exclusiveMinimum = v
		case "maximum":
			k.maximum = v
		case "exclusiveMaximum":
			k.exclusiveMaximum = v
		case "minLength":
			k.minLength = v
		case "maxLength":
			k.maxLength = v
		case "pattern":
			k.pattern = v
		case "minItems":
			k.minItems = v
		case "maxItems":
			k.maxItems = v
		}
	}
	return k
}

// docTag is one JSDoc tag: its name and the keyword value it shows.
type docTag struct {
	name  string
	value *node
}

// tags lists the tag keywords present, in output order.
func (k *keywords) tags() [12]docTag {
	return [12]docTag{
		{"deprecated", k.deprecated}, {"format", k.format}, {"default", k.defaultValue},
		{"minimum", k.minimum}, {"exclusiveMinimum", k.exclusiveMinimum},
		{"maximum", k.maximum}, {"exclusiveMaximum", k.exclusiveMaximum},
		{"minLength", k.minLength}, {"maxLength", k.maxLength}, {"pattern", k.pattern},
		{"minItems", k.minItems}, {"maxItems", k.maxItems},
	}
}

// stringValue returns v's text when v is a string.
func stringValue(v *node) (string, bool) {
	if v == nil || v.kind != kindString {
		return "", false
	}
	return v.text, true
}
