// tables.mjs writes the locale data the Intl implementation formats with
// (../cldr.json), as Node 22's ICU (CLDR) formats it: symbols, number,
// percent, currency, compact and unit patterns, currency symbols and names,
// calendar names and date-time patterns for the supported locales. Run it
// with Node 22 from this directory: node tables.mjs > ../cldr.json
const locales = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP", "zh-CN"];
const currencies = ["USD", "EUR", "GBP", "JPY", "CNY", "CHF", "CAD", "AUD", "INR", "KRW", "BRL", "MXN",
  "RUB", "SEK", "NOK", "DKK", "PLN", "HKD", "SGD", "NZD", "ZAR", "TRY", "CZK", "HUF", "ILS", "THB", "TWD",
  "AED", "SAR", "IDR", "PHP", "VND", "UAH", "ARS", "CLP", "COP", "EGP", "NGN", "BTC"].filter((c) => {
    try { new Intl.NumberFormat("en", { style: "currency", currency: c }); return true; } catch { return false; }
  });
const units = [...Intl.supportedValuesOf("unit"), "kilometer-per-hour", "mile-per-hour", "meter-per-second",
  "liter-per-kilometer", "mile-per-gallon", "kilobyte-per-second", "megabyte-per-second", "megabit-per-second",
  "gigabyte-per-second"];

const numberTypes = new Set(["integer", "group", "decimal", "fraction", "minusSign", "plusSign"]);

// pattern writes parts as a pattern: a list of [type, value], where the
// number's own parts become one ["number"], a sign ["sign"], and the parts
// whose type placeholders names become [type] (filled in when formatting).
function pattern(parts, placeholders) {
  const out = [];
  for (const p of parts) {
    if (numberTypes.has(p.type) && p.type !== "minusSign" && p.type !== "plusSign") {
      if (out.length === 0 || out[out.length - 1][0] !== "number") out.push(["number"]);
    } else if (p.type === "minusSign" || p.type === "plusSign") out.push(["sign"]);
    else if (placeholders[p.type]) out.push([p.type]);
    else out.push([p.type, p.value]);
  }
  return out;
}

function categorySamples(locale) {
  const pr = new Intl.PluralRules(locale);
  const out = {};
  for (const n of [1, 2, 0, 3, 5, 11, 21, 100, 1000000, 1.5, 0.5]) {
    const c = pr.select(n);
    if (!(c in out)) out[c] = n;
  }
  return out;
}

function numberData(locale) {
  const nf = (o) => new Intl.NumberFormat(locale, o);
  const symbol = (o, x, type) => nf(o).formatToParts(x).find((p) => p.type === type).value;
  const d = {};
  d.symbols = {
    decimal: symbol({}, 1.5, "decimal"), group: symbol({}, 1234567, "group"),
    minusSign: symbol({}, -1, "minusSign"), plusSign: symbol({ signDisplay: "always" }, 1, "plusSign"),
    percentSign: symbol({ style: "percent" }, 1, "percentSign"), exponential: symbol({ notation: "scientific" }, 1, "exponentSeparator"),
    infinity: symbol({}, Infinity, "infinity"), nan: symbol({}, NaN, "nan"),
  };
  d.minimumGrouping = nf({}).format(1234).includes(d.symbols.group) ? 1 : 2;
  d.decimal = { negative: pattern(nf({}).formatToParts(-1), {}) };
  d.percent = { positive: pattern(nf({ style: "percent" }).formatToParts(1), { percentSign: true }), negative: pattern(nf({ style: "percent" }).formatToParts(-1), { percentSign: true }) };
  const cur = (o, x) => pattern(nf({ style: "currency", currency: "EUR", ...o }).formatToParts(x), { currency: true });
  d.currency = {
    positive: cur({}, 1), negative: cur({}, -1),
    accountingPositive: cur({ currencySign: "accounting" }, 1), accountingNegative: cur({ currencySign: "accounting" }, -1),
    namePositive: pattern(nf({ style: "currency", currency: "EUR", currencyDisplay: "name" }).formatToParts(1), { currency: true }),
    nameNegative: pattern(nf({ style: "currency", currency: "EUR", currencyDisplay: "name" }).formatToParts(-1), { currency: true }),
  };
  const samples = categorySamples(locale);
  d.plurals = Object.keys(samples);
  d.currencies = {};
  for (const c of currencies) {
    const e = {
      symbol: symbol({ style: "currency", currency: c }, 1, "currency"),
      narrow: symbol({ style: "currency", currency: c, currencyDisplay: "narrowSymbol" }, 1, "currency"),
      digits: nf({ style: "currency", currency: c }).resolvedOptions().maximumFractionDigits,
      names: {},
    };
    for (const [cat, n] of Object.entries(samples)) e.names[cat] = symbol({ style: "currency", currency: c, currencyDisplay: "name" }, n, "currency");
    d.currencies[c] = e;
  }
  d.compact = {};
  const compactSamples = (cat) => [2, 3, 5, 1.5, 1.2, 0.5, 1, 0].find((n) => new Intl.PluralRules(locale).select(n) === cat);
  for (const display of ["short", "long"]) {
    const table = [];
    const fmt = (n) => nf({ notation: "compact", compactDisplay: display, maximumFractionDigits: 1 }).formatToParts(n);
    for (let p = 0; p <= 20; p++) {
      const byCat = {};
      const ones = fmt(10 ** p);
      const twos = fmt(2 * 10 ** p);
      const integer = twos.filter((x) => x.type === "integer").map((x) => x.value).join("");
      const compacted = twos.some((x) => x.type === "compact");
      const exponent = compacted ? p - (integer.length - 1) : 0;
      for (const cat of Object.keys(samples)) {
        const n = compactSamples(cat);
        if (n === undefined) continue;
        byCat[cat] = compacted ? pattern(fmt(n * 10 ** p), {}) : [];
      }
      // CLDR may word exactly 1 apart from its category ("mille").
      const one = compacted ? pattern(ones, {}) : [];
      if (JSON.stringify(one) !== JSON.stringify(byCat[new Intl.PluralRules(locale).select(1)])) byCat["1"] = one;
      table.push({ exponent, patterns: byCat });
    }
    d.compact[display] = table;
  }
  d.units = {};
  for (const u of units) {
    const e = {};
    for (const display of ["short", "long", "narrow"]) {
      e[display] = {};
      for (const [cat, n] of Object.entries(samples)) {
        e[display][cat] = pattern(nf({ style: "unit", unit: u, unitDisplay: display }).formatToParts(n), {});
      }
    }
    d.units[u] = e;
  }
  return d;
}

const out = { locales: {} };
for (const l of locales) out.locales[l] = { number: numberData(l) };
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
