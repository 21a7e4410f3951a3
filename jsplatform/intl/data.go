package intl

import (
	"embed"
	"encoding/json"
	"sync"
)

// cldr holds CLDR's data for each supported locale as Node 22's ICU
// formats with it, written by gen/tables.mjs, and the IANA zone names ICU
// knows.
//
//go:embed cldr
var cldr embed.FS

// part is one piece of formatted output, as formatToParts reports it.
type part struct {
	Type, Value string
}

// patternPart is one piece of a pattern: a placeholder ("number", "sign",
// "currency", "percentSign") or text of a type ("literal", "compact",
// "unit").
type patternPart []string

func (p patternPart) kind() string { return p[0] }
func (p patternPart) text() string {
	if len(p) > 1 {
		return p[1]
	}
	return ""
}

type numberSymbols struct {
	Decimal, Group, MinusSign, PlusSign, PercentSign, Exponential, Infinity, NaN string
}

type currencyData struct {
	Symbol, Narrow string
	Digits         int
	Names          map[string]string // by plural category
}

type compactLevel struct {
	Exponent int
	Patterns map[string][]patternPart // by plural category; empty: not compacted
}

type numberData struct {
	Symbols         numberSymbols
	MinimumGrouping int
	// Range are formatRange's separator ("–") and approximately sign ("~").
	Range    struct{ Separator, Approximately string }
	Decimal  struct{ Negative []patternPart }
	Percent  struct{ Positive, Negative []patternPart }
	Currency struct {
		Positive, Negative, AccountingPositive, AccountingNegative, NamePositive, NameNegative []patternPart
	}
	Plurals    []string
	Currencies map[string]currencyData
	Compact    map[string][]compactLevel
	Units      map[string]map[string]map[string][]patternPart // unit, display, category
}

type localeData struct {
	Number   numberData
	Date     dateData
	Relative map[string]map[string]relativeUnit // style, unit
	List     map[string]map[string]listPatterns // type, style
}

// relativeUnit are a unit's relative-time patterns by plural category,
// and the names numeric "auto" uses ("yesterday") by offset.
type relativeUnit struct {
	Future, Past map[string][]patternPart
	Named        map[string]string
}

// listPatterns are the literals a list puts between its elements.
type listPatterns struct{ Pair, Start, Middle, End string }

// localeTables are the data of the locales, each read the first time a
// realm formats for it.
var localeTables = func() map[string]func() *localeData {
	m := map[string]func() *localeData{}
	for _, l := range dataLocales {
		m[l] = sync.OnceValue(func() *localeData {
			raw, err := cldr.ReadFile("cldr/" + l + ".json")
			if err != nil {
				panic("intl: " + err.Error())
			}
			var d localeData
			if err := json.Unmarshal(raw, &d); err != nil {
				panic("intl: cldr/" + l + ".json: " + err.Error())
			}
			return &d
		})
	}
	return m
}()

// dataLocales are the locales the tables hold.
var dataLocales = []string{"en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN"}
