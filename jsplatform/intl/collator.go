package intl

import (
	"unicode"

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// collatorKey is what picks a collator: its locale and options.
type collatorKey struct {
	locale, sensitivity, caseFirst string
	numeric, ignorePunctuation     bool
}

func readCollatorKey(o *goja.Object) collatorKey {
	return collatorKey{
		locale:            readString(o, "dataLocale"),
		sensitivity:       readString(o, "sensitivity"),
		caseFirst:         readString(o, "caseFirst"),
		numeric:           o.Get("numeric").ToBoolean(),
		ignorePunctuation: o.Get("ignorePunctuation").ToBoolean(),
	}
}

// collator compares strings by x/text's CLDR collation. x/text lacks
// caseFirst; for upper it orders strings that differ only in case the
// other way round, which is what uppercase first means.
type collator struct {
	full, caseless *collate.Collator
	upperFirst     bool
	// caseOnly compares base letters and case, not accents (sensitivity
	// "case"): x/text has no such strength, so the accents are taken off
	// first.
	caseOnly bool
}

var stripMarks = transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)

func withoutMarks(s string) string {
	out, _, err := transform.String(stripMarks, s)
	if err != nil {
		return s
	}
	return out
}

func (c *collator) compare(a, b string) int {
	if c.caseOnly {
		a, b = withoutMarks(a), withoutMarks(b)
	}
	r := c.full.CompareString(a, b)
	if c.upperFirst && r != 0 && c.caseless.CompareString(a, b) == 0 {
		return -r
	}
	return r
}

// collator returns the realm's collator for key, made once.
func (r *Realm) collator(key collatorKey) *collator {
	if c, ok := r.collators[key]; ok {
		return c
	}
	tag, err := language.Parse(key.locale)
	if err != nil {
		tag = language.English
	}
	var opts []collate.Option
	switch key.sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics, collate.IgnoreWidth)
	case "accent":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreWidth)
	}
	if key.numeric {
		opts = append(opts, collate.Numeric)
	}
	if key.ignorePunctuation {
		opts = append(opts, collate.OptionsFromTag(language.MustParse("und-u-ka-shifted")))
	}
	c := &collator{full: collate.New(tag, opts...), upperFirst: key.caseFirst == "upper", caseOnly: key.sensitivity == "case"}
	if c.upperFirst {
		c.caseless = collate.New(tag, append(opts, collate.IgnoreCase)...)
	}
	r.collators[key] = c
	return c
}
