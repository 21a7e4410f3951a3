// Grouping and shaping what tools return, with the newer built-ins.
interface Issue { id: number; state: "open" | "closed"; labels: string[]; assignee: string | null; points: number }
const issues: Issue[] = [
  { id: 1, state: "open", labels: ["bug", "ui"], assignee: "ana", points: 3 },
  { id: 2, state: "closed", labels: ["bug"], assignee: "ben", points: 5 },
  { id: 3, state: "open", labels: ["feature"], assignee: null, points: 8 },
  { id: 4, state: "open", labels: ["bug"], assignee: "ana", points: 2 },
  { id: 5, state: "closed", labels: [], assignee: "cy", points: 1 },
];
const byState = Object.groupBy(issues, (i) => i.state);
const byAssignee = Map.groupBy(issues, (i) => i.assignee ?? "unassigned");
const pointsByAssignee = Object.fromEntries([...byAssignee].map(([who, list]) => [who, list.reduce((s, i) => s + i.points, 0)]));

const { promise, resolve } = Promise.withResolvers<string>();
setTimeout(() => resolve("resolved later"), 5);
const later = await promise;

async function* pages() {
  for (let p = 1; p <= 3; p++) yield { page: p, items: issues.filter((i) => i.id % 3 === p % 3).map((i) => i.id) };
}
const collected = await Array.fromAsync(pages(), (p) => p.items.length);

const firstOpenBugs = issues.values().filter((i) => i.state === "open" && i.labels.includes("bug")).map((i) => `#${i.id}`).take(5).toArray();
const labelCounts = Iterator.from(issues.flatMap((i) => i.labels)).reduce((acc: Record<string, number>, l) => ((acc[l] = (acc[l] ?? 0) + 1), acc), {});
const sorted = issues.toSorted((a, b) => b.points - a.points).map((i) => i.id);
const last = issues.findLast((i) => i.state === "open")?.id;
const broken = "ok\uD800text";

return {
  open: byState.open?.map((i) => i.id),
  closed: byState.closed?.length,
  groupsHavePrototype: Object.getPrototypeOf(byState) === null,
  pointsByAssignee,
  later,
  collected,
  firstOpenBugs,
  labelCounts,
  sorted,
  last,
  wellFormed: [broken.isWellFormed(), broken.toWellFormed().length, "fine".isWellFormed()],
  at: [issues.at(-1)?.id, "abc".at(-1)],
  hasOwn: Object.hasOwn(byState, "open"),
};
