// aliases.mjs writes CLDR's alias data that locale canonicalization
// applies (../cldr/aliases.json), read from what Node 22's ICU does with
// each candidate code: language aliases (also those that bring a script or
// a region: "sh" is "sr-Latn", "cnr" is "sr-ME"; sign languages by region:
// "sgn-GR" is "gss"), region aliases with the replacements that depend on
// the language or the script ("SU" is "RU", but "AM" for Armenian),
// language-and-variant aliases ("art-lojban" is "jbo"), and the aliases
// of -u- and -t- extension values. Run it with Node 22 from this
// directory: node aliases.mjs ../cldr
import { writeFileSync } from "node:fs";

const letters = "abcdefghijklmnopqrstuvwxyz";
const alnum = letters + "0123456789";
const canon = (tag) => {
  try { return Intl.getCanonicalLocales(tag)[0]; } catch { return undefined; }
};
function codes(length, alphabet) {
  const out = [];
  const grow = (prefix) => {
    if (prefix.length === length) return out.push(prefix);
    for (const c of alphabet) grow(prefix + c);
  };
  grow("");
  return out;
}

// Languages: every two- and three-letter code ICU replaces.
const language = {};
for (const code of [...codes(2, letters), ...codes(3, letters)]) {
  const c = canon(code);
  if (c !== undefined && c !== code) language[code] = c;
}
const regions = [...codes(2, letters).map((r) => r.toUpperCase()), ...codes(3, "0123456789")];
for (const r of regions) {
  const c = canon(`sgn-${r}`);
  if (c !== undefined && !c.startsWith("sgn")) language[`sgn-${r}`] = c;
}

// Regions: the replacement for und, and where a language or a script
// picks another of the alias's replacements.
const languageNames = new Intl.DisplayNames("en", { type: "language", fallback: "none" });
const namedLanguages = [...codes(2, letters), ...codes(3, letters)].filter((l) => language[l] === undefined && languageNames.of(l) !== undefined);
const scriptNames = new Intl.DisplayNames("en", { type: "script", fallback: "none" });
const scripts = codes(4, letters).map((s) => s[0].toUpperCase() + s.slice(1)).filter((s) => scriptNames.of(s) !== undefined);
const regionNames = new Intl.DisplayNames("en", { type: "region", fallback: "none" });
const namedRegions = codes(2, letters).filter((r) => regionNames.of(r.toUpperCase()) !== undefined);
const region = {}, regionByLanguage = {}, regionByScript = {};
const regionOf = (tag) => tag.split("-").find((p, i) => i > 0 && (/^[A-Z]{2}$/.test(p) || /^\d{3}$/.test(p)));
for (const r of regions) {
  const c = canon(`und-${r}`);
  if (c === undefined || c === `und-${r}`) continue;
  const replacement = regionOf(c);
  if (replacement === undefined) continue;
  region[r] = replacement;
  for (const l of namedLanguages) {
    const v = regionOf(canon(`${l}-${r}`) ?? "");
    if (v !== undefined && v !== replacement) (regionByLanguage[r] ??= {})[l] = v;
  }
  for (const s of scripts) {
    const v = regionOf(canon(`und-${s}-${r}`) ?? "");
    if (v !== undefined && v !== replacement) (regionByScript[r] ??= {})[s] = v;
  }
}

// Variants: those ICU replaces, alone or after a language, by what it
// replaces them with.
const variantCandidates = ["heploc", "hepburn-heploc", "arevela", "arevmda", "aaland", "polytoni", "saaho", "lojban",
  "gaulish", "guoyu", "hakka", "xiang", "bokmal", "nynorsk", "1901", "1996", "fonipa", "posix", "valencia", "tarask"];
const variant = {};
for (const v of variantCandidates) {
  // A variant replaced whatever the language ("heploc" is "alalc97",
  // "aaland" the region AX); ICU's dropping of variants it does not know
  // and its -u-va- for "posix" are not CLDR's aliases.
  const alone = canon(`und-${v}`);
  if (alone !== undefined && alone !== `und-${v}` && alone !== "und" && !alone.includes("-u-")) variant[`und-${v}`] = alone;
}
// Languages and variants replaced together ("art-lojban" is "jbo",
// "zh-guoyu" is "zh"): CLDR's, each checked against ICU.
for (const tag of ["art-lojban", "cel-gaulish", "zh-guoyu", "zh-hakka", "zh-xiang", "hy-arevela", "hy-arevmda", "no-bokmal", "no-nynorsk"]) {
  const c = canon(tag);
  if (c !== undefined && c !== tag) variant[tag] = c;
}

// -u- keyword values.
const unicodeValue = {};
const keyValue = (key, value) => {
  const tag = `und-u-${key}-${value}`;
  const c = canon(tag);
  if (c === undefined || c === tag) return;
  (unicodeValue[key] ??= {})[value] = c === `und-u-${key}` ? "true" : c.slice(`und-u-${key}-`.length);
};
// "yes" is "true" for CLDR's boolean keys only (ICU says so of every key).
for (const key of ["kb", "kc", "kh", "kk", "kn"]) keyValue(key, "yes");
for (const v of ["ethiopic-amete-alem", "islamicc", "gregorian", "islamic-civil"]) keyValue("ca", v);
for (const v of ["primary", "secondary", "tertiary", "quaternary", "quarternary", "identical"]) keyValue("ks", v);
for (const v of ["imperial", "metric", "ussystem"]) keyValue("ms", v);
for (const v of ["gb2312han", "phonebook", "dictionary", "traditional"]) keyValue("co", v);
// Time zones: the short names and the deprecated region-first codes.
const tzCandidates = [...codes(3, letters), ...codes(4, letters), "gmt0", "est5edt", "cst6cdt", "mst7mdt", "pst8pdt"];
for (const r of namedRegions) for (const rest of codes(3, letters)) tzCandidates.push(r + rest);
for (const v of tzCandidates) keyValue("tz", v);
// Subdivisions (rg and sd): a region and one to three letters or digits.
const subdivision = {};
const subdivisionRegions = new Set();
for (const r of namedRegions) {
  for (const rest of [...codes(1, alnum), ...codes(2, alnum)]) {
    const tag = `und-u-rg-${r}${rest}`;
    const c = canon(tag);
    if (c !== undefined && c !== tag) { subdivision[r + rest] = c.slice("und-u-rg-".length); subdivisionRegions.add(r); }
  }
}
for (const r of subdivisionRegions) {
  for (const rest of codes(3, alnum)) {
    const tag = `und-u-rg-${r}${rest}`;
    const c = canon(tag);
    if (c !== undefined && c !== tag) subdivision[r + rest] = c.slice("und-u-rg-".length);
  }
}
unicodeValue.rg = subdivision;
unicodeValue.sd = subdivision;

// -t- field values.
const transformValue = {};
for (const [key, values] of Object.entries({ m0: ["names", "beta-metsehaf", "ies-jes", "prprname"] })) {
  for (const v of values) {
    const tag = `und-t-${key}-${v}`;
    const c = canon(tag);
    if (c !== undefined && c !== tag) (transformValue[key] ??= {})[v] = c.slice(`und-t-${key}-`.length);
  }
}

const dir = process.argv[2] ?? "../cldr";
writeFileSync(`${dir}/aliases.json`, JSON.stringify({ language, region, regionByLanguage, regionByScript, variant, unicodeValue, transformValue }) + "\n");
