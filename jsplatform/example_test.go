package jsplatform_test

import (
	"fmt"

	"github.com/dop251/goja"

	"github.com/mcpexec/mcpexec/jsplatform"
)

// A runtime with the platform installed: the web globals are made the
// first time the script reads one, and Prepare runs the repairs the code
// needs (here, JSON.parse with V8's messages).
func ExampleInstall() {
	vm := goja.New()
	p, err := jsplatform.Install(vm, jsplatform.Config{})
	if err != nil {
		panic(err)
	}
	code := `
		const u = new URL("/search?q=a b", "https://example.com");
		let why;
		try { JSON.parse("{oops}"); } catch (e) { why = e.message; }
		[u.href, btoa("hi"), why].join("\n");`
	if err := p.Prepare(code); err != nil {
		panic(err)
	}
	v, err := vm.RunString(code)
	if err != nil {
		panic(err)
	}
	fmt.Println(v)
	// Output:
	// https://example.com/search?q=a%20b
	// aGk=
	// Expected property name or '}' in JSON at position 1 (line 1 column 2)
}
