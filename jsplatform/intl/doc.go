// Package intl is ECMA-402's Intl for a goja realm: NumberFormat,
// DateTimeFormat, Collator, PluralRules, RelativeTimeFormat, ListFormat,
// DisplayNames, Segmenter, Locale, getCanonicalLocales and
// supportedValuesOf, and the built-ins' locale-sensitive methods (toLocaleString, toLocaleDateString,
// toLocaleTimeString, localeCompare) taking locales and options.
//
// New makes it in one runtime: intl.js, run in that realm, reads options,
// resolves locales and checks receivers as the specification says, so
// every object and function a script meets is the realm's own; the Go half
// formats. It answers as Node 22 with full ICU does for en-US, en-GB,
// de-DE, fr-FR, es-ES, ja-JP and zh-CN (and their languages alone); any
// other locale resolves to the default. The locale data (symbols, number,
// currency, compact, unit and date patterns, names) is CLDR's as ICU ships
// it, extracted once with Node 22 by gen/tables.mjs into cldr.json;
// collation and plural rules are golang.org/x/text's (collate,
// feature/plural), currency digits beyond the tables x/text's currency
// package, and time zones Go's own database, embedded (time/tzdata), so
// the results never depend on the machine. DisplayNames' names are ICU's
// too, written by gen/displaynames.mjs into cldr/names and read on first
// use; Segmenter breaks text by Unicode's rules (UAX #29, rivo/uniseg),
// where ICU alone uses dictionaries for Chinese, Japanese and Thai words.
//
// Where x/text's older CLDR differs from Node's ICU, Node's answer is kept
// where the tables can hold it; the rest is listed in node_test.go
// (knownDifferences). gen/expected.mjs writes Node's answers for the
// tests (testdata/node22.json).
package intl
