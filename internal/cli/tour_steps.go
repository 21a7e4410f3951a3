package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
)

// readTool is a stand-in for a host's own built-in tool: declared flatly,
// never part of the pool.
var readTool = mcpexec.Declaration{
	Name:        "Read",
	Description: "Read a file from the workspace.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
}

func stepDeclarations(_ context.Context, t *tour) error {
	cat := t.main.Catalog()
	decls := t.main.Declarations(mcpexec.DeclareOptions{Builtin: []mcpexec.Declaration{readTool}})
	t.note("MCP servers connected: %s", namespaceCounts(cat.Namespaces))
	t.note("%s in the pool; tools[] holds %s:", plural(cat.Total, "MCP tool"), plural(len(decls), "declaration"))
	t.printf("%s\n", declarationsJSON(decls))
	t.note("(trimmed for the screen: descriptions to their first line, schemas to their property names)")
	if !slices.ContainsFunc(decls, func(d mcpexec.Declaration) bool { return d.Name == "Exec" }) {
		return fmt.Errorf("%w: Exec is not declared", errUnexpected)
	}
	return nil
}

func stepCatalog(_ context.Context, t *tour) error {
	msgs, err := t.broadcast(t.main, t.mainHistory)
	if err != nil {
		return err
	}
	t.printMessages(msgs)
	if err := expectCatalog(msgs, broadcast.KindFull); err != nil {
		return err
	}
	again, err := t.main.Broadcast(t.mainHistory, mcpexec.DeclareOptions{})
	if err != nil {
		return err
	}
	t.note("Asked again before the next request, with nothing changed: %s to append.", plural(len(again), "message"))
	if len(again) != 0 {
		return fmt.Errorf("%w: an unchanged pool was broadcast again", errUnexpected)
	}
	return nil
}

// printMessages prints broadcast messages: catalog messages in full, server
// instructions as one line each.
func (t *tour) printMessages(msgs []broadcast.Message) {
	var instructions []string
	for _, m := range msgs {
		if m.Catalog == nil {
			header, body, _ := strings.Cut(m.Text, "\n\n")
			instructions = append(instructions, header+" "+strings.ReplaceAll(body, "\n", " "))
			continue
		}
		t.modelText(catalogLabel(m.Catalog.Kind), m.Text)
	}
	if len(instructions) > 0 {
		t.modelText(fmt.Sprintf("Appended with it: %s of server instructions", plural(len(instructions), "message")),
			strings.Join(instructions, "\n"))
	}
}

// expectCatalog fails the step unless msgs hold a catalog message of kind.
func expectCatalog(msgs []broadcast.Message, kind broadcast.Kind) error {
	for _, m := range msgs {
		if m.Catalog != nil && m.Catalog.Kind == kind {
			return nil
		}
	}
	return fmt.Errorf("%w: no %s catalog message was appended", errUnexpected, kind)
}

func catalogLabel(kind broadcast.Kind) string {
	switch kind {
	case broadcast.KindFull:
		return "Appended meta message: the full catalog"
	case broadcast.KindDiff:
		return "Appended meta message: a namespace-level catalog update"
	case broadcast.KindWithdrawn:
		return "Appended meta message: the catalog is withdrawn"
	case broadcast.KindEmpty:
		return "Appended meta message: the pool is empty"
	}
	return "Appended meta message"
}

const chainScript = `const record = await tools.mcp__srv__fetch({ id: 1 });
console.log("fetched:", record.title);
return await tools.mcp__srv__store({ value: record });`

func stepChain(ctx context.Context, t *tour) error {
	res, err := t.exec(ctx, t.main, chainScript)
	if err != nil {
		return err
	}
	return expect(res, true, `"title":"Quarterly report"`)
}

const valuesScript = `const record = await tools.mcp__srv__fetch({ id: 3 });            // structuredContent
const text = await tools.mcp__text__echo({ text: "plain text" }); // text only
const nothing = await tools.mcp__text__nothing({});               // neither
const image = await tools.mcp__text__image({});                   // one PNG only
try {
  await tools.mcp__text__fail({ message: "quota exceeded" });
} catch (e) {
  console.log("caught:", e.message);
}
return { record: typeof record, title: record.title, text, nothing, image };`

func stepValues(ctx context.Context, t *tour) error {
	res, err := t.exec(ctx, t.main, valuesScript)
	if err != nil {
		return err
	}
	if len(res.Images) != 1 {
		return fmt.Errorf("%w: %d images, want 1", errUnexpected, len(res.Images))
	}
	return expect(res, true, `"record":"object"`)
}

// searchScript asks the way a model does when it cannot see the tool's
// name, and calls the best match.
const searchScript = `const hits = await tools["$codemode"].search({ query: "wait a moment" });
console.log("best matches:", hits.slice(0, 3).map((h) => h.name).join(", "));
return await tools[hits[0].name]({ ms: 5 });`

func stepTruncation(ctx context.Context, t *tour) error {
	if err := t.startSmall(ctx); err != nil {
		return err
	}
	msgs, err := t.broadcast(t.small, t.smallHistory)
	if err != nil {
		return err
	}
	t.printMessages(msgs)
	cat := t.small.Catalog()
	if !cat.Truncated {
		return fmt.Errorf("%w: the small budget did not truncate the catalog", errUnexpected)
	}
	t.note("The weather server is offline in this session, for the step after next.")
	t.printf("\n")
	t.note("Search covers the whole pool, shown or not, best match first:")
	res, err := t.exec(ctx, t.small, searchScript)
	if err != nil {
		return err
	}
	return expect(res, true, "slept 5 ms")
}

const deleteScript = `return await tools.mcp__srv__delete({ id: 4 });`

func stepPermission(ctx context.Context, t *tour) error {
	settings, err := os.ReadFile(t.settings)
	if err != nil {
		return err
	}
	t.label("Settings file")
	t.printf("%s\n", t.st.dim(indent(strings.TrimSpace(string(settings)), "    ")))
	res, err := t.exec(ctx, t.main, deleteScript)
	if err != nil || t.c.stdinTerminal {
		return err // a person may say no: either answer is a fine outcome
	}
	return expect(res, true, "deleted record 4")
}

func stepServerConnects(ctx context.Context, t *tour) error {
	before := t.small.Catalog()
	t.note("Before: %s.", namespaceCounts(before.Namespaces))
	if err := os.Remove(t.offline); err != nil {
		return err
	}
	t.note("The weather server may start now; the pool's next retry connects it.")
	if err := waitFor(ctx, "the weather server to connect", func() bool {
		return t.small.Catalog().Namespaces["weather"] > 0
	}); err != nil {
		return err
	}
	t.note("After:  %s.", namespaceCounts(t.small.Catalog().Namespaces))
	msgs, err := t.broadcast(t.small, t.smallHistory)
	if err != nil {
		return err
	}
	t.printMessages(msgs)
	return expectCatalog(msgs, broadcast.KindDiff)
}

func stepSwitch(ctx context.Context, t *tour) error {
	if err := t.setEnableExec(false); err != nil {
		return err
	}
	t.note(`Wrote "enableExec": false to the settings file.`)
	if err := waitFor(ctx, "the settings reload", func() bool { return !t.execDeclared() }); err != nil {
		return err
	}
	names := t.declaredNames()
	t.label(fmt.Sprintf("tools[] now: %s", plural(len(names), "flat declaration")))
	t.printf("%s\n", wrapWords(names, "    ", ruleWidth))
	msgs, err := t.broadcast(t.main, t.mainHistory)
	if err != nil {
		return err
	}
	t.printMessages(msgs)
	if err := expectCatalog(msgs, broadcast.KindWithdrawn); err != nil {
		return err
	}

	if err := t.setEnableExec(true); err != nil {
		return err
	}
	t.printf("\n")
	t.note(`Wrote "enableExec": true.`)
	if err := waitFor(ctx, "the settings reload", t.execDeclared); err != nil {
		return err
	}
	t.label("tools[] now: " + strings.Join(t.declaredNames(), ", "))
	msgs, err = t.broadcast(t.main, t.mainHistory)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if m.Catalog != nil {
			first, _, _ := strings.Cut(m.Text, "\n")
			t.modelText(catalogLabel(m.Catalog.Kind)+" again", first+"\n…")
		}
	}
	return expectCatalog(msgs, broadcast.KindFull)
}

// broadcast asks s what to append to history before the next request,
// appends it, and returns it.
func (t *tour) broadcast(s *mcpexec.System, history *broadcast.History) ([]broadcast.Message, error) {
	msgs, err := s.Broadcast(history, mcpexec.DeclareOptions{})
	if err != nil {
		return nil, err
	}
	history.Append(msgs...)
	return msgs, nil
}

func (t *tour) declaredNames() []string {
	var names []string
	for _, d := range t.main.Declarations(mcpexec.DeclareOptions{}) {
		names = append(names, d.Name)
	}
	return names
}

func (t *tour) execDeclared() bool { return slices.Contains(t.declaredNames(), "Exec") }

// setEnableExec edits the settings file the way a person would: the other
// keys (including rules saved by "allow always") stay as they are.
func (t *tour) setEnableExec(on bool) error {
	data, err := os.ReadFile(t.settings)
	if err != nil {
		return err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("settings file: %w", err)
	}
	doc["enableExec"] = json.RawMessage(fmt.Sprint(on))
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(t.settings, append(out, '\n'), 0o600)
}
