// A Markdown table built from tool results: padding, alignment, escaping.
type Row = { id: number; title: string; owner: string; tags: string[] };
const { records } = await tools.mcp__srv__list({});
const rows: Row[] = [];
for (const { id } of records) {
  rows.push(await tools.mcp__srv__fetch({ id }));
}
const headers = ["ID", "Title", "Owner", "Tags"] as const;
const cells = rows.map((r) => [String(r.id), r.title.replace(/\|/g, "\\|"), r.owner, r.tags.join(", ")]);
const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
const line = (cols: readonly string[]) => "| " + cols.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
const table = [
  line(headers),
  "|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2))).join("|") + "|",
  ...cells.map(line),
].join("\n");
console.log(`${rows.length} rows`);
return table;
