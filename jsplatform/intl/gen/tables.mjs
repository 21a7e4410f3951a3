// tables.mjs writes the locale data the Intl implementation formats with
// (../cldr/<locale>.json), as Node 22's ICU (CLDR) formats it: symbols, number,
// percent, currency, compact and unit patterns, currency symbols and names,
// calendar names and date-time patterns for the supported locales. Run it
// with Node 22 from this directory: node tables.mjs ../cldr
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
  // formatRange's separator and its sign for a range whose ends format
  // alike.
  d.range = {
    separator: nf({}).formatRangeToParts(3, 5).find((p) => p.source === "shared").value,
    approximately: nf({}).formatRangeToParts(3, 3).find((p) => p.type === "approximatelySign").value,
  };
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


// --- Dates ------------------------------------------------------------------

// The instant every pattern is read from: each numeric field below ten, so
// that a leading zero shows a two-digit width.
const sample = new Date(Date.UTC(2024, 8, 7, 5, 4, 9, 123)); // Saturday
const widths = ["narrow", "short", "long"];

function dateNames(locale) {
  const f = (o, date, type) => new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...o }).formatToParts(date).find((p) => p.type === type)?.value;
  const months = { format: {}, standalone: {} }, weekdays = { format: {}, standalone: {} }, eras = {};
  for (const w of widths) {
    months.format[w] = [], months.standalone[w] = [], weekdays.format[w] = [], weekdays.standalone[w] = [];
    for (let m = 0; m < 12; m++) {
      const d = new Date(Date.UTC(2024, m, 7));
      months.format[w].push(f({ month: w, day: "numeric" }, d, "month"));
      months.standalone[w].push(f({ month: w }, d, "month"));
    }
    for (let day = 0; day < 7; day++) {
      const d = new Date(Date.UTC(2024, 8, 1 + day)); // 1 September 2024 is a Sunday
      weekdays.format[w].push(f({ weekday: w, year: "numeric", month: "long", day: "numeric" }, d, "weekday"));
      weekdays.standalone[w].push(f({ weekday: w }, d, "weekday"));
    }
    eras[w] = [f({ era: w, year: "numeric" }, new Date(Date.UTC(-100, 0, 1)), "era"), f({ era: w, year: "numeric" }, sample, "era")];
  }
  const am = f({ hour: "numeric", hour12: true }, sample, "dayPeriod");
  const pm = f({ hour: "numeric", hour12: true }, new Date(Date.UTC(2024, 8, 7, 17)), "dayPeriod");
  // The day periods the dayPeriod option shows ("in the morning", "noon"),
  // by width: for each hour on the hour, then at half past.
  const flexibleDayPeriods = {};
  for (const w of widths) {
    flexibleDayPeriods[w] = [];
    for (let h = 0; h < 24; h++) {
      for (const m of [0, 30]) flexibleDayPeriods[w].push(f({ dayPeriod: w }, new Date(Date.UTC(2024, 8, 7, h, m)), "dayPeriod"));
    }
  }
  return { months, weekdays, eras, dayPeriods: [am, pm], flexibleDayPeriods };
}

// tokens writes formatToParts' parts as a pattern: literals stay, a field
// becomes [type, width], its width read from the value.
function tokens(parts, names, requested) {
  const hasDay = parts.some((p) => p.type === "day");
  const numeric = (v) => (v.length === 2 && v[0] === "0" ? "2-digit" : "numeric");
  const nameWidth = (table, index, value, preferContext) => {
    const contexts = preferContext === "format" ? ["format", "standalone"] : ["standalone", "format"];
    const ws = [requested, ...widths.filter((w) => w !== requested)];
    for (const c of contexts) for (const w of ws) if (table[c][w] && table[c][w][index] === value) return c === "format" ? w : w + "-standalone";
    return null;
  };
  return mergeLiterals(parts.map((p) => {
    switch (p.type) {
      case "literal": return ["literal", p.value];
      case "year": return ["year", p.value.length === 2 ? "2-digit" : "numeric"];
      case "month":
        if (/^\d+$/.test(p.value)) return ["month", numeric(p.value)];
        return ["month", nameWidth(names.months, 8, p.value, hasDay ? "format" : "standalone") || "short"];
      case "weekday":
        return ["weekday", nameWidth(names.weekdays, 6, p.value, parts.length > 1 ? "format" : "standalone") || "short"];
      case "day": case "hour": case "minute": case "second": return [p.type, numeric(p.value)];
      case "dayPeriod": return ["dayPeriod", "short"];
      case "era": {
        const w = widths.find((x) => names.eras[x][1] === p.value) || "short";
        return ["era", w];
      }
      case "timeZoneName": return ["timeZoneName", requested.timeZoneName || "short"];
      case "fractionalSecond": return ["fractionalSecond", String(p.value.length)];
    }
    return ["literal", p.value];
  }));
}

function mergeLiterals(ts) {
  const out = [];
  for (const t of ts) {
    const last = out[out.length - 1];
    if (t[0] === "literal" && last && last[0] === "literal") last[1] += t[1];
    else out.push([...t]);
  }
  return out;
}

const dateFields = {
  weekday: [undefined, "narrow", "short", "long"],
  year: [undefined, "numeric", "2-digit"],
  month: [undefined, "numeric", "2-digit", "narrow", "short", "long"],
  day: [undefined, "numeric", "2-digit"],
};
const timeFields = { hour: [undefined, "numeric", "2-digit"], minute: [undefined, "numeric", "2-digit"], second: [undefined, "numeric", "2-digit"] };
const zoneStyles = [undefined, "short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"];

function combos(fields) {
  let out = [{}];
  for (const [k, values] of Object.entries(fields)) {
    const next = [];
    for (const o of out) for (const v of values) next.push(v === undefined ? o : { ...o, [k]: v });
    out = next;
  }
  return out;
}

// key names an option set the way the Go formatter looks it up.
export function key(o) {
  return ["weekday", "era", "year", "month", "day", "hour", "minute", "second", "hour12", "timeZoneName"]
    .filter((k) => o[k] !== undefined).map((k) => k + "=" + o[k]).join(",");
}

function dateData(locale) {
  const names = dateNames(locale);
  const fmt = (o) => new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...o });
  const parts = (o) => fmt(o).formatToParts(sample);
  const d = { names, dates: {}, times: {}, glue: {}, combined: {}, styles: {} };
  d.hourCycles = {
    default: fmt({ hour: "numeric" }).resolvedOptions().hourCycle,
    h12: fmt({ hour: "numeric", hour12: true }).resolvedOptions().hourCycle,
    h24: fmt({ hour: "numeric", hour12: false }).resolvedOptions().hourCycle,
  };
  const dates = combos(dateFields).filter((o) => Object.keys(o).length > 0);
  for (const o of dates) d.dates[key(o)] = tokens(parts(o), names, o.month || o.weekday);
  const times = [];
  for (const o of combos(timeFields)) {
    for (const tz of zoneStyles) {
      for (const h12 of o.hour ? [true, false] : [undefined]) {
        const t = { ...o };
        if (h12 !== undefined) t.hour12 = h12;
        if (tz) t.timeZoneName = tz;
        if (Object.keys(t).length === 0) continue;
        times.push(t);
        d.times[key(t)] = tokens(parts(t), names, { timeZoneName: tz });
      }
    }
  }
  // The glue between a date and a time, read with hours and minutes: what
  // lies between the date's pattern and the time's.
  const hm = d.times["hour=numeric,minute=2-digit,hour12=false"];
  for (const o of dates) {
    const both = tokens(parts({ ...o, hour: "numeric", minute: "2-digit", hour12: false }), names, o.month || o.weekday);
    const date = d.dates[key(o)];
    const middle = both.slice(0, both.length - hm.length);
    let glue = [];
    const last = date[date.length - 1];
    const at = middle[date.length - 1];
    if (last[0] === "literal" && at && at[0] === "literal" && at[1].startsWith(last[1])) {
      glue = [["literal", at[1].slice(last[1].length)], ...middle.slice(date.length)].filter((t) => t[0] !== "literal" || t[1] !== "");
    } else {
      glue = middle.slice(date.length);
    }
    d.glue[key(o)] = glue;
  }
  // Where date, glue and time do not make what ICU makes, the whole.
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  for (const o of dates) {
    for (const t of times) {
      if (t.timeZoneName) continue; // a zone's name goes where the time's pattern puts it
      const whole = { ...o, ...t };
      const got = tokens(parts(whole), names, { ...whole, ...{ timeZoneName: t.timeZoneName } });
      const glued = mergeLiterals([...d.dates[key(o)], ...d.glue[key(o)], ...d.times[key(t)]]);
      if (!same(got, glued)) d.combined[key(whole)] = got;
    }
  }
  const styles = [undefined, "full", "long", "medium", "short"];
  for (const ds of styles) for (const ts of styles) {
    if (!ds && !ts) continue;
    const o = {};
    if (ds) o.dateStyle = ds;
    if (ts) o.timeStyle = ts;
    for (const h12 of ts ? [undefined, true, false] : [undefined]) {
      const oo = h12 === undefined ? o : { ...o, hour12: h12 };
      const tzStyle = ts === "full" ? "long" : "short";
      d.styles[(ds || "") + "/" + (ts || "") + (h12 === undefined ? "" : "/" + h12)] = tokens(parts(oo), names, { timeZoneName: tzStyle });
    }
  }
  d.gmt = {
    zero: fmt({ timeZone: "UTC", timeZoneName: "shortOffset" }).formatToParts(sample).find((p) => p.type === "timeZoneName").value,
    short: fmt({ timeZone: "Asia/Kolkata", timeZoneName: "shortOffset" }).formatToParts(sample).find((p) => p.type === "timeZoneName").value,
    long: fmt({ timeZone: "Asia/Kolkata", timeZoneName: "longOffset" }).formatToParts(sample).find((p) => p.type === "timeZoneName").value,
    zeroLong: fmt({ timeZone: "UTC", timeZoneName: "longOffset" }).formatToParts(sample).find((p) => p.type === "timeZoneName").value,
    // "-5" as the locale writes it, for its minus sign.
    negative: fmt({ timeZone: "America/Bogota", timeZoneName: "shortOffset" }).formatToParts(sample).find((p) => p.type === "timeZoneName").value,
  };
  d.zones = {};
  for (const zone of zones) {
    d.zones[zone] = {};
    // [standard, daylight]: daylight time is the larger offset, in January
    // south of the equator.
    const offset = (t) => new Intl.DateTimeFormat("en", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(t).find((p) => p.type === "timeZoneName").value;
    const jan = Date.UTC(2024, 0, 15, 12), jul = Date.UTC(2024, 6, 15, 12);
    const instants = offset(jan) > offset(jul) && offset(jan).includes("+") ? [jul, jan] : [jan, jul];
    for (const style of ["short", "long", "shortGeneric", "longGeneric"]) {
      d.zones[zone][style] = instants.map((t) =>
        new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style }).formatToParts(t).find((p) => p.type === "timeZoneName").value);
    }
  }
  return d;
}

// --- Relative times and lists -------------------------------------------------

const relativeUnits = ["year", "quarter", "month", "week", "day", "hour", "minute", "second"];
const numberPartTypes = new Set(["integer", "group", "decimal", "fraction", "minusSign", "plusSign"]);

// relativePattern writes a relative time's parts with its number as one
// ["number"].
function relativePattern(parts) {
  const out = [];
  for (const p of parts) {
    if (numberPartTypes.has(p.type)) {
      if (!out.length || out[out.length - 1][0] !== "number") out.push(["number"]);
    } else out.push(["literal", p.value]);
  }
  return out;
}

function relativeData(locale) {
  const samples = categorySamples(locale);
  const d = {};
  for (const style of ["long", "short", "narrow"]) {
    d[style] = {};
    const always = new Intl.RelativeTimeFormat(locale, { style, numeric: "always" });
    const auto = new Intl.RelativeTimeFormat(locale, { style, numeric: "auto" });
    for (const unit of relativeUnits) {
      const e = { future: {}, past: {}, named: {} };
      for (const [cat, n] of Object.entries(samples)) {
        e.future[cat] = relativePattern(always.formatToParts(n, unit));
        e.past[cat] = relativePattern(always.formatToParts(-n, unit));
      }
      for (const v of [-2, -1, 0, 1, 2]) {
        const parts = auto.formatToParts(v, unit);
        if (!parts.some((p) => p.type === "integer")) e.named[String(v)] = parts.map((p) => p.value).join("");
      }
      d[style][unit] = e;
    }
  }
  return d;
}

function listData(locale) {
  const d = {};
  for (const type of ["conjunction", "disjunction", "unit"]) {
    d[type] = {};
    for (const style of ["long", "short", "narrow"]) {
      const lf = new Intl.ListFormat(locale, { type, style });
      const lit = (list) => lf.formatToParts(list).filter((p) => p.type === "literal").map((p) => p.value);
      const [pair] = lit(["A", "B"]);
      const [start, end] = lit(["A", "B", "C"]);
      const middle = lit(["A", "B", "C", "D"])[1];
      d[type][style] = { pair, start, middle, end };
    }
  }
  return d;
}

const zones = ["UTC", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Phoenix",
  "America/Anchorage", "Pacific/Honolulu", "America/Toronto", "America/Vancouver", "America/Mexico_City", "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires", "America/Bogota", "America/Lima", "America/Santiago", "Europe/London", "Europe/Dublin",
  "Europe/Lisbon", "Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Europe/Brussels",
  "Europe/Zurich", "Europe/Vienna", "Europe/Stockholm", "Europe/Oslo", "Europe/Copenhagen", "Europe/Helsinki", "Europe/Warsaw",
  "Europe/Prague", "Europe/Athens", "Europe/Kiev", "Europe/Kyiv", "Europe/Moscow", "Europe/Istanbul", "Africa/Cairo",
  "Africa/Johannesburg", "Africa/Lagos", "Africa/Nairobi", "Asia/Dubai", "Asia/Karachi", "Asia/Kolkata", "Asia/Calcutta",
  "Asia/Dhaka", "Asia/Bangkok", "Asia/Jakarta", "Asia/Singapore", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei",
  "Asia/Manila", "Asia/Tokyo", "Asia/Seoul", "Australia/Perth", "Australia/Adelaide", "Australia/Brisbane", "Australia/Sydney",
  "Australia/Melbourne", "Pacific/Auckland", "Etc/UTC", "Etc/GMT", "GMT"];

import { writeFileSync, mkdirSync } from "node:fs";
const dir = process.argv[2] || "../cldr";
mkdirSync(dir, { recursive: true });
for (const l of locales) writeFileSync(`${dir}/${l}.json`, JSON.stringify({ number: numberData(l), date: dateData(l), relative: relativeData(l), list: listData(l) }) + "\n");
writeFileSync(`${dir}/timezones.json`, JSON.stringify(Intl.supportedValuesOf("timeZone")) + "\n");
