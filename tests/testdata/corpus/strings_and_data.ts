// String and data wrangling over results: regexps, grouping, sorting, JSON.
const { records } = await tools.mcp__srv__list({});
const details = await Promise.all(records.map((r: { id: number }) => tools.mcp__srv__fetch({ id: r.id })));
const grouped = details.reduce((acc: Record<string, string[]>, r: { owner: string; title: string }) => {
  (acc[r.owner] ||= []).push(r.title);
  return acc;
}, {});
const m = /Incident (?<num>\d+) (?<kind>\w+)/.exec(details[2].title);
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
const words = details.flatMap((d: { title: string }) => d.title.split(/\s+/)).filter((w: string) => w.length > 5);
return {
  grouped,
  incident: m?.groups ? { ...m.groups } : null,
  slugs: details.map((d: { title: string }) => slug(d.title)),
  longWords: [...new Set(words)].sort((a, b) => a.localeCompare(b)),
  replaced: "a-b-c".replaceAll("-", "+"),
  template: `${details.length} records, ${Object.keys(grouped).length} owners`,
  json: JSON.stringify({ k: [1, { n: null }] }, null, 2),
  trimmed: ["  x  ".trim(), "  x".trimStart(), "x  ".trimEnd()],
  dates: [new Date(Date.UTC(2020, 1, 29)).toISOString(), new Date("2024-03-10T12:00:00Z").getUTCDay()],
  numbers: [(1234.5678).toFixed(2), (0.1 + 0.2).toPrecision(3), parseInt("42px", 10), Number("3.5e2"), (255).toString(2)],
};
