package intl

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
)

// aliasData are CLDR's aliases that canonicalization applies, as Node 22's
// ICU applies them, written by gen/aliases.mjs.
type aliasData struct {
	// Language replaces a language ("sh": "sr-Latn", "cnr": "sr-ME") or a
	// sign language by its region ("sgn-GR": "gss").
	Language map[string]string
	// Region replaces a region; RegionByLanguage and RegionByScript pick
	// another of its replacements for a language or a script ("SU" is
	// "RU", but "AM" for "hy").
	Region           map[string]string
	RegionByLanguage map[string]map[string]string
	RegionByScript   map[string]map[string]string
	// Variant replaces a language and variant ("art-lojban": "jbo") or a
	// variant whatever the language ("und-heploc": "und-alalc97").
	Variant map[string]string
	// UnicodeValue and TransformValue replace -u- keyword and -t- field
	// values by key ("ca": {"islamicc": "islamic-civil"}).
	UnicodeValue   map[string]map[string]string
	TransformValue map[string]map[string]string
}

// aliases are read the first time a tag is canonicalized.
var aliases = sync.OnceValue(func() *aliasData {
	raw, err := cldr.ReadFile("cldr/aliases.json")
	if err != nil {
		panic("intl: " + err.Error())
	}
	var a aliasData
	if err := json.Unmarshal(raw, &a); err != nil {
		panic("intl: cldr/aliases.json: " + err.Error())
	}
	return &a
})

// languageID is a tag's unicode_language_id, its subtags in canonical
// case.
type languageID struct {
	language, script, region string
	variants                 []string
}

// parseReplacement reads an alias's replacement ("sr-Latn", "und-AX",
// "ja-alalc97").
func parseReplacement(s string) languageID {
	parts := strings.Split(s, "-")
	id := languageID{language: parts[0]}
	for _, p := range parts[1:] {
		switch {
		case len(p) == 4 && !isDigit(p[0]):
			id.script = p
		case len(p) == 2 || len(p) == 3 && isDigits(p):
			id.region = p
		default:
			id.variants = append(id.variants, p)
		}
	}
	return id
}

// replaceWith applies a replacement: its language (unless und), and its
// script, region and variants where the tag has none of its own.
func (id *languageID) replaceWith(r languageID) {
	if r.language != "und" {
		id.language = r.language
	}
	if id.script == "" {
		id.script = r.script
	}
	if id.region == "" {
		id.region = r.region
	}
	for _, v := range r.variants {
		if !slices.Contains(id.variants, v) {
			id.variants = append(id.variants, v)
		}
	}
}

// applyAliases replaces the aliases in id as UTS #35's canonicalization
// does: language and variant, variant, language, then region.
func (id *languageID) applyAliases() {
	a := aliases()
	if len(id.variants) > 0 {
		// Two variants replaced together first ("hepburn-heploc").
		for key, replacement := range a.Variant {
			parts := strings.Split(key, "-")
			if len(parts) < 3 || parts[0] != "und" && parts[0] != id.language {
				continue
			}
			if !containsAll(id.variants, parts[1:]) {
				continue
			}
			id.variants = slices.DeleteFunc(id.variants, func(v string) bool { return slices.Contains(parts[1:], v) })
			id.replaceWith(parseReplacement(replacement))
		}
		for i := 0; i < len(id.variants); i++ {
			v := id.variants[i]
			replacement, ok := a.Variant[id.language+"-"+v]
			if !ok {
				replacement, ok = a.Variant["und-"+v]
			}
			if ok {
				id.variants = slices.Delete(id.variants, i, i+1)
				id.replaceWith(parseReplacement(replacement))
				i = -1
			}
		}
	}
	if id.language == "sgn" && id.region != "" {
		if replacement, ok := a.Language["sgn-"+id.region]; ok {
			id.region = ""
			id.replaceWith(parseReplacement(replacement))
		}
	}
	if replacement, ok := a.Language[id.language]; ok {
		id.language = "und"
		id.replaceWith(parseReplacement(replacement))
	}
	if replacement, ok := a.Region[id.region]; ok {
		if r, ok := a.RegionByLanguage[id.region][id.language]; ok {
			replacement = r
		} else if r, ok := a.RegionByScript[id.region][id.script]; ok {
			replacement = r
		}
		id.region = replacement
	}
}

func containsAll(list, want []string) bool {
	for _, w := range want {
		if !slices.Contains(list, w) {
			return false
		}
	}
	return true
}

// unicodeValueAlias is a -u- keyword's canonical value.
func unicodeValueAlias(key string, value []string) []string {
	if r, ok := aliases().UnicodeValue[key][strings.Join(value, "-")]; ok {
		return strings.Split(r, "-")
	}
	return value
}

// transformValueAlias is a -t- field's canonical value.
func transformValueAlias(key string, value []string) []string {
	if r, ok := aliases().TransformValue[key][strings.Join(value, "-")]; ok {
		return strings.Split(r, "-")
	}
	return value
}
