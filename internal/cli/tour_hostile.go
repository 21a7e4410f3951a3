package cli

import "context"

// The hostile scripts: escapes that must find nothing, a loop that never
// yields, and a request for a terabyte.
const (
	escapeScript = `const found = { require: typeof require, process: typeof process, fetch: typeof fetch };
const attempts = {
  eval: () => eval("1 + 1"),
  newFunction: () => new Function("return this")(),
  viaConstructor: () => tools.mcp__text__echo.constructor("return this")(),
};
for (const [name, attempt] of Object.entries(attempts)) {
  try { attempt(); found[name] = "ran!"; } catch (e) { found[name] = e.name; }
}
return found;`
	loopScript    = `while (true) {}`
	hogScript     = `return "x".repeat(2 ** 40).length; // a terabyte`
	stillUpScript = `return await tools.mcp__text__echo({ text: "still here" });`
)

func stepHostile(ctx context.Context, t *tour) error {
	s, err := t.startHostile(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	checks := []struct {
		script   string
		ok       bool
		contains string
		lead     string
	}{
		{escapeScript, true, `"eval":"EvalError"`, "Reaching for the host finds nothing:"},
		{loopScript, false, "", "A loop that never yields is stopped at the deadline:"},
		{hogScript, false, "", "Asking for a terabyte costs the worker process, not the session:"},
		{stillUpScript, true, "still here", "The session goes on with a fresh worker:"},
	}
	for i, c := range checks {
		if i > 0 {
			t.printf("\n")
		}
		t.note("%s", c.lead)
		res, err := t.exec(ctx, s, c.script)
		if err != nil {
			return err
		}
		if err := expect(res, c.ok, c.contains); err != nil {
			return err
		}
	}
	return nil
}
