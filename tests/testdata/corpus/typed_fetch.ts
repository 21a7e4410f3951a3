// Type annotations, an interface, a generic helper and `as` casts, over
// records fetched in parallel.
interface Record {
  id: number;
  title: string;
  owner: string;
  tags: string[];
}

function pick<T, K extends keyof T>(obj: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = obj[k];
  return out;
}

const ids: number[] = [1, 2, 3];
const records = (await Promise.all(ids.map((id) => tools.mcp__srv__fetch({ id })))) as Record[];
const byOwner = new Map<string, Record[]>();
for (const r of records) {
  const list = byOwner.get(r.owner) ?? [];
  list.push(r);
  byOwner.set(r.owner, list);
}
const first: Record | undefined = records.find((r): r is Record => r.tags.includes("release"));
console.log(`fetched ${records.length} records`);
return {
  picked: records.map((r) => pick(r, "id", "title")),
  owners: [...byOwner.keys()].sort(),
  release: first!.title,
  tagCount: records.reduce<number>((n, r) => n + r.tags.length, 0),
};
