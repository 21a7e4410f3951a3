package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// instantHost answers every call at once with a small structured value.
type instantHost struct{}

func (instantHost) CallTool(context.Context, string, json.RawMessage) (CallResult, error) {
	return CallResult{Value: json.RawMessage(`{"ok":true}`)}, nil
}

func (instantHost) Search(context.Context, json.RawMessage) (json.RawMessage, error) {
	return json.RawMessage(`[]`), nil
}

func poolOf(n int) *ToolSet {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("mcp__server%d__tool%d", i%7, i)
	}
	return NewToolSet(names)
}

const trivialScript = `const x = 1 + 1; return x;`

// BenchmarkTrivialScript is one whole run: fresh runtime, lockdown, console
// and a tools object over a pool of 100 tools, compile, run, result.
func BenchmarkTrivialScript(b *testing.B) {
	req := Request{Code: trivialScript, Host: instantHost{}, Tools: poolOf(100)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := Run(ctx, req); !res.OK {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkTrivialScriptPlainGoja is the same script on a bare goja runtime:
// the cost of the engine alone, without lockdown, tools, console, value
// crossing or the deadline.
func BenchmarkTrivialScriptPlainGoja(b *testing.B) {
	src := "(async function () {" + trivialScript + "\n})()"
	b.ReportAllocs()
	for b.Loop() {
		vm := goja.New()
		v, err := vm.RunString(src)
		if err != nil {
			b.Fatal(err)
		}
		if p := v.Export().(*goja.Promise); p.State() != goja.PromiseStateFulfilled {
			b.Fatal("not fulfilled")
		}
	}
}

const nestedCalls = 10_000

var nestedScript = fmt.Sprintf(`let n = 0; for (let i = 0; i < %d; i++) { const r = await tools.mcp__server1__tool1({ i }); if (r.ok) n++; } return n;`, nestedCalls)

// BenchmarkNestedCall reports the cost of one nested call round trip
// (argument export, host goroutine, hand-back to the loop, result import),
// measured over a script of 10,000 calls to a host that answers at once.
func BenchmarkNestedCall(b *testing.B) {
	req := Request{Code: nestedScript, Host: instantHost{}, Tools: poolOf(100), Limits: Limits{MaxCalls: nestedCalls}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := Run(ctx, req); !res.OK {
			b.Fatal(res.Text)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nestedCalls), "ns/call")
}

// BenchmarkNestedCallPlainGoja is the same loop against a bare goja function
// that returns an already-resolved promise of a fresh object: the engine's
// own await round trip.
func BenchmarkNestedCallPlainGoja(b *testing.B) {
	src := "(async function () {" + nestedScript + "\n})()"
	b.ReportAllocs()
	for b.Loop() {
		vm := goja.New()
		tools := vm.NewObject()
		_ = tools.Set("mcp__server1__tool1", func(goja.FunctionCall) goja.Value {
			p, resolve, _ := vm.NewPromise()
			obj := vm.NewObject()
			_ = obj.Set("ok", true)
			_ = resolve(obj)
			return vm.ToValue(p)
		})
		_ = vm.Set("tools", tools)
		v, err := vm.RunString(src)
		if err != nil {
			b.Fatal(err)
		}
		if p := v.Export().(*goja.Promise); p.State() != goja.PromiseStateFulfilled {
			b.Fatal("not fulfilled")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nestedCalls), "ns/call")
}

// BenchmarkTrivialTypeScript is BenchmarkTrivialScript with one type
// annotation, which sends the script through the transform.
func BenchmarkTrivialTypeScript(b *testing.B) {
	req := Request{Code: `const x: number = 1 + 1; return x;`, Host: instantHost{}, Tools: poolOf(100)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := Run(ctx, req); !res.OK {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkTransform is the TypeScript transform of a typical model script
// alone (esbuild, with its source map).
func BenchmarkTransform(b *testing.B) {
	for b.Loop() {
		if _, err := transform(typicalScript); err != nil {
			b.Fatal(err)
		}
	}
}

const typicalScript = `interface Issue { id: number; title: string; labels?: string[] }
const issues: Issue[] = await tools.mcp__github__list_issues({ repo: "acme/app", state: "open" }) as any;
` + typicalScriptRest

// typicalJavaScript is typicalScript as a model writes it in plain
// JavaScript.
const typicalJavaScript = `const issues = await tools.mcp__github__list_issues({ repo: "acme/app", state: "open" });
` + typicalScriptRest

const typicalScriptRest = `const rows = issues
	.filter((i) => i.labels?.includes("bug") ?? false)
	.map((i) => "| " + i.id + " | " + i.title + " |");
for (const i of issues.slice(0, 3)) {
	await tools.mcp__github__add_comment({ repo: "acme/app", issue: i.id, body: "triaged" });
}
console.log(rows.length + " bugs");
return ["| id | title |", "|---|---|", ...rows].join("\n");`

// BenchmarkCompile compares the two ways a plain JavaScript script can be
// compiled: as written, which is what a run does (parse, compile, and the
// position map: its first line only, or every line when the last line has
// a non-ASCII character), and through the transform, which it skips.
func BenchmarkCompile(b *testing.B) {
	nonASCII := strings.Replace(typicalJavaScript, `.join("\n")`, `.join("\n") + " ✓"`, 1)
	for _, c := range []struct {
		name    string
		code    string
		compile func(string) (*goja.Program, string, error)
	}{
		{"AsWritten", typicalJavaScript, compile},
		{"AsWrittenNonASCIILastLine", nonASCII, compile},
		{"Transformed", typicalJavaScript, compileTransformed},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := c.compile(c.code); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
