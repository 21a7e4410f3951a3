package intl

import (
	_ "embed"
	"encoding/json"
	"sync"
)

// cldr.json is CLDR's data for the supported locales as Node 22's ICU
// formats with it, written by gen/tables.mjs.
//
//go:embed cldr.json
var cldrJSON []byte

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
	Decimal         struct{ Negative []patternPart }
	Percent         struct{ Positive, Negative []patternPart }
	Currency        struct {
		Positive, Negative, AccountingPositive, AccountingNegative, NamePositive, NameNegative []patternPart
	}
	Plurals    []string
	Currencies map[string]currencyData
	Compact    map[string][]compactLevel
	Units      map[string]map[string]map[string][]patternPart // unit, display, category
}

type localeData struct {
	Number numberData
	Date   dateData
}

type tables struct {
	Locales map[string]*localeData
}

// data parses the tables once per process, the first time a realm formats.
var data = sync.OnceValue(func() *tables {
	var t tables
	if err := json.Unmarshal(cldrJSON, &t); err != nil {
		panic("intl: cldr.json: " + err.Error())
	}
	return &t
})
