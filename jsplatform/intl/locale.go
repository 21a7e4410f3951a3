package intl

import (
	"slices"
	"strings"
)

// availableLocales are the locales the tables format for, as ECMA-402's
// [[AvailableLocales]]: each of the data's locales and its language alone
// (which formats as the locale dataFor names).
var availableLocales = []string{
	"de", "de-DE", "en", "en-GB", "en-US", "es", "es-ES", "fr", "fr-FR", "ja", "ja-JP", "zh", "zh-CN", "zh-Hans", "zh-Hans-CN",
}

// dataFor is the tables of the locale that formats for an available
// locale.
func dataFor(locale string) *localeData {
	return localeTables[dataLocaleOf(locale)]()
}

// dataLocaleOf names the tables' locale for an available locale: itself,
// or its language's (en-GB stays; ja is ja-JP); en-US for the others.
func dataLocaleOf(locale string) string {
	if _, ok := localeTables[locale]; ok {
		return locale
	}
	switch strings.SplitN(locale, "-", 2)[0] {
	case "de":
		return "de-DE"
	case "fr":
		return "fr-FR"
	case "es":
		return "es-ES"
	case "ja":
		return "ja-JP"
	case "zh":
		return "zh-CN"
	}
	return "en-US"
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if (c < 'a' || c > 'z') && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return s != ""
}

// canonicalizeTag checks that tag is a structurally valid Unicode locale
// identifier and writes it in canonical form (case, order of variants and
// extensions, unicode extension keywords, language and region aliases),
// as ECMA-402's CanonicalizeUnicodeLocaleId does. ok is false for a tag
// that is not valid.
func canonicalizeTag(tag string) (string, bool) {
	for i := 0; i < len(tag); i++ {
		if tag[i] > 127 {
			return "", false
		}
	}
	subtags := strings.Split(strings.ToLower(tag), "-")
	i := 0
	next := func() string {
		if i < len(subtags) {
			return subtags[i]
		}
		return ""
	}
	language := next()
	if !isAlpha(language) || len(language) == 4 || len(language) < 2 || len(language) > 8 {
		return "", false
	}
	i++
	script, region := "", ""
	if s := next(); len(s) == 4 && isAlpha(s) {
		script = strings.ToUpper(s[:1]) + s[1:]
		i++
	}
	if s := next(); (len(s) == 2 && isAlpha(s)) || (len(s) == 3 && isDigits(s)) {
		region = strings.ToUpper(s)
		i++
	}
	var variants []string
	for {
		s := next()
		if !((len(s) >= 5 && len(s) <= 8 && isAlnum(s)) || (len(s) == 4 && s[0] >= '0' && s[0] <= '9' && isAlnum(s))) {
			break
		}
		if slices.Contains(variants, s) {
			return "", false
		}
		variants = append(variants, s)
		i++
	}
	extensions := map[byte]string{}
	var singletons []byte
	privateUse := ""
	for i < len(subtags) {
		s := subtags[i]
		if len(s) != 1 || !isAlnum(s) {
			return "", false
		}
		i++
		if s == "x" {
			rest := subtags[i:]
			if len(rest) == 0 {
				return "", false
			}
			for _, r := range rest {
				if len(r) < 1 || len(r) > 8 || !isAlnum(r) {
					return "", false
				}
			}
			privateUse = "x-" + strings.Join(rest, "-")
			break
		}
		if _, dup := extensions[s[0]]; dup {
			return "", false
		}
		start := i
		for i < len(subtags) && len(subtags[i]) >= 2 && len(subtags[i]) <= 8 && isAlnum(subtags[i]) {
			i++
		}
		if i == start {
			return "", false
		}
		body := subtags[start:i]
		var canon string
		var ok bool
		switch s[0] {
		case 'u':
			canon, ok = canonicalUnicodeExtension(body)
		case 't':
			canon, ok = canonicalTransformedExtension(body)
		default:
			canon, ok = strings.Join(body, "-"), true
		}
		if !ok {
			return "", false
		}
		extensions[s[0]] = canon
		singletons = append(singletons, s[0])
	}
	id := languageID{language: language, script: script, region: region, variants: variants}
	id.applyAliases()
	language, script, region, variants = id.language, id.script, id.region, id.variants
	slices.Sort(variants)
	slices.Sort(singletons)
	parts := []string{language}
	if script != "" {
		parts = append(parts, script)
	}
	if region != "" {
		parts = append(parts, region)
	}
	parts = append(parts, variants...)
	for _, s := range singletons {
		parts = append(parts, string(s), extensions[s])
	}
	if privateUse != "" {
		parts = append(parts, privateUse)
	}
	return strings.Join(parts, "-"), true
}

// canonicalUnicodeExtension writes a -u- extension's subtags canonically:
// attributes sorted without duplicates, then keywords sorted by key, the
// first of a repeated key kept, a "true" value dropped.
func canonicalUnicodeExtension(body []string) (string, bool) {
	i := 0
	var attributes []string
	for i < len(body) && len(body[i]) >= 3 {
		if !slices.Contains(attributes, body[i]) {
			attributes = append(attributes, body[i])
		}
		i++
	}
	type keyword struct {
		key   string
		value []string
	}
	var keywords []keyword
	for i < len(body) {
		key := body[i]
		if len(key) != 2 || !isAlnum(key) || !isAlpha(key[1:]) {
			return "", false
		}
		i++
		var value []string
		for i < len(body) && len(body[i]) >= 3 {
			value = append(value, body[i])
			i++
		}
		if slices.ContainsFunc(keywords, func(k keyword) bool { return k.key == key }) {
			continue
		}
		value = unicodeValueAlias(key, value)
		if len(value) == 1 && value[0] == "true" {
			value = nil
		}
		keywords = append(keywords, keyword{key, value})
	}
	slices.Sort(attributes)
	slices.SortStableFunc(keywords, func(a, b keyword) int { return strings.Compare(a.key, b.key) })
	out := append([]string(nil), attributes...)
	for _, k := range keywords {
		out = append(out, k.key)
		out = append(out, k.value...)
	}
	return strings.Join(out, "-"), true
}

// canonicalTransformedExtension checks a -t- extension: an optional
// language tag, then fields (a key of letter and digit, values of 3 to 8).
func canonicalTransformedExtension(body []string) (string, bool) {
	i := 0
	var lang []string
	if len(body) > 0 && isAlpha(body[0]) && (len(body[0]) == 2 || len(body[0]) == 3 || len(body[0]) >= 5) {
		for i < len(body) && !(len(body[i]) == 2 && isAlpha(body[i][:1]) && isDigits(body[i][1:])) {
			lang = append(lang, body[i])
			i++
		}
		c, ok := canonicalizeTag(strings.Join(lang, "-"))
		if !ok {
			return "", false
		}
		lang = strings.Split(strings.ToLower(c), "-")
	}
	type field struct {
		key   string
		value []string
	}
	var fields []field
	for i < len(body) {
		key := body[i]
		if !(len(key) == 2 && isAlpha(key[:1]) && isDigits(key[1:])) {
			return "", false
		}
		i++
		var value []string
		for i < len(body) && len(body[i]) >= 3 {
			value = append(value, body[i])
			i++
		}
		if len(value) == 0 || slices.ContainsFunc(fields, func(f field) bool { return f.key == key }) {
			return "", false
		}
		fields = append(fields, field{key, transformValueAlias(key, value)})
	}
	if len(lang) == 0 && len(fields) == 0 {
		return "", false
	}
	slices.SortFunc(fields, func(a, b field) int { return strings.Compare(a.key, b.key) })
	out := append([]string(nil), lang...)
	for _, f := range fields {
		out = append(out, f.key)
		out = append(out, f.value...)
	}
	return strings.Join(out, "-"), true
}
