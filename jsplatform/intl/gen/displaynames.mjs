// displaynames.mjs writes the names Intl.DisplayNames gives
// (../cldr/names/<locale>.json) as Node 22's ICU (CLDR) gives them: the
// languages, regions, scripts, currencies, calendars and date-time fields
// ICU names, the dialect names of language tags ("American English"), the
// names of scripts and regions inside a language's name ("Traditional" in
// "Chinese (Traditional, Hong Kong SAR China)"), and the patterns that join
// them. A short or narrow name is kept only where it differs from the long
// one. Run it with Node 22 from this directory: node displaynames.mjs ../cldr
import { mkdirSync, writeFileSync } from "node:fs";

const locales = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN"];
const letters = "abcdefghijklmnopqrstuvwxyz";
const styles = ["long", "short", "narrow"];

// codes lists every code of the given lengths over the alphabet, as make
// spells it.
function codes(lengths, alphabet, make = (s) => s) {
  const out = [];
  const grow = (prefix, left) => {
    if (left === 0) return out.push(make(prefix));
    for (const c of alphabet) grow(prefix + c, left - 1);
  };
  for (const n of lengths) grow("", n);
  return out;
}
const title = (s) => s[0].toUpperCase() + s.slice(1);
const digits = "0123456789";

// named keeps the codes ICU names (fallback "none" answers undefined for
// the others), long names in full, short and narrow ones where they differ.
function named(locale, type, candidates, extra = {}) {
  const names = {};
  const dn = Object.fromEntries(styles.map((style) => [style, new Intl.DisplayNames(locale, { type, style, fallback: "none", ...extra })]));
  for (const code of candidates) {
    // A language alias ("eng") is named by its canonical tag ("en").
    if (type === "language" && Intl.getCanonicalLocales(code)[0] !== code) continue;
    const long = dn.long.of(code);
    if (long === undefined) continue;
    (names.long ??= {})[code] = long;
    for (const style of ["short", "narrow"]) {
      const v = dn[style].of(code);
      if (v !== long) (names[style] ??= {})[code] = v;
    }
  }
  return names;
}

const calendars = Intl.supportedValuesOf("calendar");
const fields = ["era", "year", "quarter", "month", "weekOfYear", "weekday", "day", "dayPeriod", "hour", "minute", "second", "timeZoneName"];

const enLanguages = Object.keys(named("en", "language", [...codes([2, 3], letters)]).long);
const enRegions = Object.keys(named("en", "region", [...codes([2], letters, (s) => s.toUpperCase()), ...codes([3], digits)]).long);
const enScripts = Object.keys(named("en", "script", codes([4], letters, title)).long);

// dialects are the language tags ICU names as a whole in dialect mode
// ("en-US": "American English") rather than as a language and details.
function dialects(locale) {
  const dialect = new Intl.DisplayNames(locale, { type: "language", fallback: "none" });
  const standard = new Intl.DisplayNames(locale, { type: "language", fallback: "none", languageDisplay: "standard" });
  const out = [];
  for (const lang of enLanguages) {
    if (lang.length > 3) continue;
    for (const sub of [...enScripts, ...enRegions]) {
      const tag = `${lang}-${sub}`;
      const d = dialect.of(tag);
      if (d !== undefined && d !== standard.of(tag)) out.push(tag);
    }
  }
  return out;
}

// inLanguage reads the names of scripts and regions as they show inside a
// language's name, where they differ from the names alone, and the
// patterns that join a language's name and its details.
function inLanguage(locale) {
  const dn = new Intl.DisplayNames(locale, { type: "language", fallback: "none", languageDisplay: "standard" });
  const english = dn.of("en");
  const latin = new Intl.DisplayNames(locale, { type: "script" }).of("Latn");
  const us = new Intl.DisplayNames(locale, { type: "region" }).of("US");
  const both = dn.of("en-Latn-US");
  const one = dn.of("en-US");
  const pattern = one.replace(english, "{0}").replace(us, "{1}");
  const separator = both.replace(english, "").replace(latin, "{0}").replace(us, "{1}");
  const [open, close] = [pattern.slice(pattern.indexOf("{0}") + 3, pattern.indexOf("{1}")), pattern.slice(pattern.indexOf("{1}") + 3)];
  const detail = (tag) => {
    const full = dn.of(tag);
    if (full === undefined || !full.startsWith(english + open) || !full.endsWith(close)) return undefined;
    return full.slice((english + open).length, full.length - close.length);
  };
  const scripts = {}, regions = {};
  const scriptNames = new Intl.DisplayNames(locale, { type: "script" });
  const regionNames = new Intl.DisplayNames(locale, { type: "region" });
  for (const s of enScripts) {
    const v = detail(`en-${s}`);
    if (v !== undefined && v !== scriptNames.of(s)) scripts[s] = v;
  }
  for (const r of enRegions) {
    const v = detail(`en-${r}`);
    if (v !== undefined && v !== regionNames.of(r)) regions[r] = v;
  }
  return { pattern, separator: separator.slice(separator.indexOf("{0}"), separator.indexOf("{1}") + 3), scripts, regions };
}

const dir = process.argv[2] ?? "../cldr";
mkdirSync(`${dir}/names`, { recursive: true });
for (const locale of locales) {
  const context = inLanguage(locale);
  const dialectTags = dialects(locale);
  const data = {
    pattern: context.pattern,
    separator: context.separator,
    language: named(locale, "language", enLanguages),
    dialect: named(locale, "language", dialectTags),
    region: named(locale, "region", enRegions),
    script: named(locale, "script", enScripts),
    scriptInLanguage: context.scripts,
    regionInLanguage: context.regions,
    currency: named(locale, "currency", codes([3], letters, (s) => s.toUpperCase())),
    calendar: named(locale, "calendar", calendars),
    dateTimeField: named(locale, "dateTimeField", fields),
  };
  writeFileSync(`${dir}/names/${locale}.json`, JSON.stringify(data) + "\n");
}
