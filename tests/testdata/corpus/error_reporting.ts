// Collecting failures across many calls and reporting them, the way a
// model reports partial success.
type Outcome = { id: number; ok: true; title: string } | { id: number; ok: false; error: string };
const ids = [1, 42, 2, 99];
const settled = await Promise.allSettled(ids.map((id) => tools.mcp__srv__fetch({ id })));
const outcomes: Outcome[] = settled.map((s, i) =>
  s.status === "fulfilled" ? { id: ids[i], ok: true, title: s.value.title } : { id: ids[i], ok: false, error: String(s.reason.message) },
);
const failed = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
for (const f of failed) console.error(`fetch ${f.id} failed: ${f.error}`);

class ValidationError extends Error {
  constructor(public readonly field: string, message: string) {
    super(message);
    this.name = "ValidationError";
  }
}
const checks: string[] = [];
for (const value of ["", "ok", "x".repeat(3)]) {
  try {
    if (!value) throw new ValidationError("title", "title is required");
    checks.push(`valid: ${value}`);
  } catch (e) {
    if (e instanceof ValidationError) checks.push(`${e.name} on ${e.field}: ${e.message}`);
    else throw e;
  }
}
const cause = new Error("outer", { cause: new Error("inner") });
let any = "";
try {
  await Promise.any([tools.mcp__text__fail({ message: "a" }), tools.mcp__text__fail({ message: "b" })]);
} catch (e) {
  any = `${(e as AggregateError).name}: ${(e as AggregateError).errors.map((x: Error) => x.message).join(",")}`;
}
return { outcomes, failedIds: failed.map((f) => f.id), checks, cause: (cause.cause as Error).message, any };
