package intl

import (
	"encoding/json"
	"strings"
	"sync"
)

// styledNames are one kind of names by style: every long name, and the
// short and narrow ones that differ from it.
type styledNames struct {
	Long, Short, Narrow map[string]string
}

// get is code's name in style, the long one where the style has none of
// its own.
func (n styledNames) get(style, code string) (string, bool) {
	switch style {
	case "short":
		if v, ok := n.Short[code]; ok {
			return v, true
		}
	case "narrow":
		if v, ok := n.Narrow[code]; ok {
			return v, true
		}
	}
	v, ok := n.Long[code]
	return v, ok
}

// displayNamesData are a locale's names for Intl.DisplayNames, written by
// gen/displaynames.mjs from Node 22's ICU.
type displayNamesData struct {
	// Pattern joins a language's name and its details ("{0} ({1})");
	// Separator joins two details ("{0}, {1}").
	Pattern, Separator string
	// Dialect names whole language tags ("en-US": "American English").
	Language, Dialect, Region, Script, Currency, Calendar, DateTimeField styledNames
	// ScriptInLanguage and RegionInLanguage are the names a script or
	// region takes inside a language's name, where they differ.
	ScriptInLanguage, RegionInLanguage map[string]string
}

// displayNamesTables are the names of each locale, read the first time a
// realm asks for one of them, so that a run without DisplayNames does not
// pay for them.
var displayNamesTables = func() map[string]func() *displayNamesData {
	m := map[string]func() *displayNamesData{}
	for _, l := range dataLocales {
		m[l] = sync.OnceValue(func() *displayNamesData {
			raw, err := cldr.ReadFile("cldr/names/" + l + ".json")
			if err != nil {
				panic("intl: " + err.Error())
			}
			var d displayNamesData
			if err := json.Unmarshal(raw, &d); err != nil {
				panic("intl: cldr/names/" + l + ".json: " + err.Error())
			}
			return &d
		})
	}
	return m
}()

// displayNamesFor are locale's names, or the default locale's.
func displayNamesFor(locale string) *displayNamesData {
	if t, ok := displayNamesTables[dataLocaleOf(locale)]; ok {
		return t()
	}
	return displayNamesTables["en-US"]()
}

// displayNameRequest is what Intl.DisplayNames.prototype.of asks: code,
// already canonical, named in a locale as type, style and
// languageDisplay say. Substitute says to put a part's code where ICU
// knows no name for it (fallback "code"), rather than to give up.
type displayNameRequest struct {
	Locale, Type, Style, LanguageDisplay, Code string
	Substitute                                 bool
}

// displayName names the code, or tells that the locale has no name for it.
func displayName(q displayNameRequest) (string, bool) {
	d := displayNamesFor(q.Locale)
	var names styledNames
	switch q.Type {
	case "language":
		return d.languageName(q)
	case "region":
		names = d.Region
	case "script":
		names = d.Script
	case "currency":
		names = d.Currency
	case "calendar":
		names = d.Calendar
	case "dateTimeField":
		names = d.DateTimeField
	default:
		return "", false
	}
	return names.get(q.Style, q.Code)
}

// languageName names a language tag as ICU's locale display names do: the
// dialect's own name where it has one ("American English"), else the
// language's, then the script, region and variants it leaves unsaid in
// parentheses ("English (Latin, United States)").
func (d *displayNamesData) languageName(q displayNameRequest) (string, bool) {
	subtags := strings.Split(q.Code, "-")
	lang := subtags[0]
	var script, region string
	rest := subtags[1:]
	if len(rest) > 0 && len(rest[0]) == 4 && !isDigit(rest[0][0]) {
		script, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 && (len(rest[0]) == 2 || len(rest[0]) == 3 && isDigit(rest[0][0])) {
		region, rest = rest[0], rest[1:]
	}
	name, found := "", false
	if q.LanguageDisplay != "standard" {
		// ICU names a dialect by the language with all of the script and
		// region the tag has, or none.
		if v, ok := d.Dialect.get(q.Style, strings.Join(nonEmpty(lang, script, region), "-")); ok && (script != "" || region != "") {
			name, found = v, true
			script, region = "", ""
		}
	}
	if !found {
		name, found = d.Language.get(q.Style, lang)
	}
	if !found {
		if !q.Substitute {
			return "", false
		}
		name = lang
	}
	var details []string
	if script != "" {
		v, ok := d.ScriptInLanguage[script]
		if !ok {
			v, ok = d.Script.get(q.Style, script)
		}
		if !ok {
			if !q.Substitute {
				return "", false
			}
			v = script
		}
		details = append(details, v)
	}
	if region != "" {
		v, ok := d.RegionInLanguage[region]
		if !ok || q.Style != "long" {
			v, ok = d.Region.get(q.Style, region)
		}
		if !ok {
			if !q.Substitute {
				return "", false
			}
			v = region
		}
		details = append(details, v)
	}
	for _, variant := range rest {
		details = append(details, strings.ToUpper(variant))
	}
	if len(details) == 0 {
		return name, true
	}
	joined := details[0]
	for _, detail := range details[1:] {
		joined = strings.NewReplacer("{0}", joined, "{1}", detail).Replace(d.Separator)
	}
	return strings.NewReplacer("{0}", name, "{1}", joined).Replace(d.Pattern), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
