// Enums, `as const`, `satisfies`, unions and type guards.
enum Priority {
  Low = 1,
  Medium,
  High,
}
enum Status {
  Open = "open",
  Closed = "closed",
}
const labels = ["finance", "release", "ops"] as const;
type Label = (typeof labels)[number];
const weights = { finance: Priority.High, release: Priority.Medium, ops: Priority.Low } satisfies Record<Label, Priority>;

type Result = { kind: "ok"; value: number } | { kind: "err"; message: string };
function isOk(r: Result): r is { kind: "ok"; value: number } {
  return r.kind === "ok";
}
const results: Result[] = [
  { kind: "ok", value: 2 },
  { kind: "err", message: "nope" },
  { kind: "ok", value: 5 },
];
const { records } = await tools.mcp__srv__list({});
const scored = records.map((r: { id: number; title: string }) => ({ ...r, status: r.id % 2 ? Status.Open : Status.Closed }));
return {
  priorities: [Priority.Low, Priority.High, Priority[2]],
  labels,
  weights,
  okSum: results.filter(isOk).reduce((a, r) => a + r.value, 0),
  open: scored.filter((r) => r.status === Status.Open).map((r) => r.id),
};
