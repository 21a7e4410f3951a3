package intl

import (
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

var formNames = map[plural.Form]string{
	plural.Other: "other", plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many",
}

// categoryFor is the plural category of d shown with fractionDigits
// fraction digits, by x/text's CLDR rules for the locale's language.
func categoryFor(rules *plural.Rules, locale string, d decimal, fractionDigits int) string {
	tag, err := language.Parse(locale)
	if err != nil {
		tag = language.English
	}
	digits := make([]byte, len(d.digits))
	for i, c := range d.digits {
		digits[i] = c - '0'
	}
	point := d.point
	if d.isZero() {
		point = 0
	}
	form := formNames[rules.MatchDigits(tag, digits, point, fractionDigits)]
	if rules == plural.Cardinal && form == "other" && millionsAreMany(tag) && fractionDigits == 0 && d.point >= 7 && d.isInteger() {
		// CLDR 38 gave French, Spanish, Italian, Portuguese and Catalan a
		// category for whole millions ("1 000 000 d’euros"), which x/text's
		// older rules lack.
		i := d.point - len(d.digits) // trailing zeros of the integer
		if i >= 6 {
			return "many"
		}
	}
	return form
}

func millionsAreMany(tag language.Tag) bool {
	base, _ := tag.Base()
	switch base.String() {
	case "fr", "es", "it", "pt", "ca":
		return true
	}
	return false
}

// cardinalCategory is the cardinal plural category, which picks a
// currency's or unit's name.
func cardinalCategory(locale string, d decimal, fractionDigits int) string {
	return categoryFor(plural.Cardinal, locale, d, fractionDigits)
}

// selectPlural is PluralRules.prototype.select: the category of the number
// as the rules' digit options round it.
func (f *numberFormatter) selectPlural(v formatValue, ordinal bool) string {
	d := f.round(v.d, v.negative)
	_, fraction := d.integerAndFraction(1, f.minimumFraction(d))
	rules := plural.Cardinal
	if ordinal {
		rules = plural.Ordinal
	}
	if f.opts.Notation == "compact" && !ordinal {
		if tag, err := language.Parse(f.opts.Locale); err == nil && millionsAreMany(tag) && !d.isZero() && d.point >= 7 {
			// Compacted to millions or more, the number's exponent is 6 or
			// more, which these languages' rules call "many" ("1,5 M").
			return "many"
		}
	}
	return categoryFor(rules, f.opts.Locale, d, len(fraction))
}

// pluralCategories are the categories the locale's rules use, in CLDR's
// order.
func pluralCategories(locale string, ordinal bool) []string {
	rules := plural.Cardinal
	if ordinal {
		rules = plural.Ordinal
	}
	seen := map[string]bool{}
	// The categories are found by trying numbers: x/text does not list
	// them.
	samples := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "11", "12", "13", "21", "22", "23", "100", "101", "1000000", "0.5", "1.5", "0.1"}
	for _, s := range samples {
		d, _ := parseDecimal(s)
		seen[categoryFor(rules, locale, d, d.fractionLength())] = true
	}
	var out []string
	for _, c := range []string{"few", "many", "one", "other", "two", "zero"} {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
}
