// Formatting numbers, money, dates and sorting names for a report.
const amounts = [1234.5, 0.256, 1e6, -42];
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const eur = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" });
const pct = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const compact = new Intl.NumberFormat("en", { notation: "compact" });
const when = new Date(Date.UTC(2024, 2, 5, 14, 30));
const names = ["Émile", "zoë", "Zack", "adam", "Ölaf", "file10", "file2"];
return {
  usd: amounts.map((n) => usd.format(n)),
  eur: eur.format(1234.5),
  plain: (1234567.891).toLocaleString("en-US"),
  money: (1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" }),
  fixed: (3.14159).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  pct: pct.format(0.256),
  compact: [1500, 2_500_000].map((n) => compact.format(n)),
  fr: new Intl.NumberFormat("fr-FR").format(1234567.5),
  ja: new Intl.NumberFormat("ja-JP", { style: "currency", currency: "JPY" }).format(5000),
  date: when.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }),
  gb: when.toLocaleDateString("en-GB", { timeZone: "UTC" }),
  time: when.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }),
  sorted: names.toSorted((a, b) => a.localeCompare(b)),
  numeric: ["file10", "file2", "file1"].sort(new Intl.Collator(undefined, { numeric: true }).compare),
  base: "a".localeCompare("A", undefined, { sensitivity: "base" }),
  plural: [0, 1, 2].map((n) => new Intl.PluralRules("en-US").select(n)),
  ordinal: [1, 2, 3, 11].map((n) => new Intl.PluralRules("en-US", { type: "ordinal" }).select(n)),
};
