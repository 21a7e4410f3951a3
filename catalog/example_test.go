package catalog_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcpexec/mcpexec/catalog"
)

var exampleTools = []catalog.Tool{
	{
		Name:        "mcp__weather__forecast",
		Description: "Get the forecast for a city.\nData comes from the national service.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{
			"city":{"type":"string","description":"City name"},
			"days":{"type":"integer","default":3,"maximum":10}},"required":["city"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"]}`),
	},
	{
		Name:        "mcp__ms-365__send-mail",
		Description: "Send an email.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"to":{"type":"array","items":{"type":"string","format":"email"}}},"required":["to"]}`),
	},
}

func ExampleRender() {
	c := catalog.Render(exampleTools, catalog.Options{})
	fmt.Println(c.Body)
	fmt.Println(c.Shown, "of", c.Total, "truncated:", c.Truncated)
	// Output:
	// MCP tools callable from a script through the `tools` object, grouped by server. Call each exactly as its signature shows; the call resolves to the tool's output. What one script stores, the next can load: `store("issues", issues)`, then `const issues = load("issues")`.
	//
	// // mcp__ms-365
	// /** Send an email. */
	// tools["mcp__ms-365__send-mail"](args: {
	//   /** Each item: @format email */
	//   to: Array<string>;
	// }): Promise<unknown>
	//
	// // mcp__weather
	// /** Get the forecast for a city. */
	// tools.mcp__weather__forecast(args: {
	//   /** City name */
	//   city: string;
	//   /** @default 3 @maximum 10 */
	//   days?: number;
	// }): Promise<{
	//   summary: string;
	// }>
	// 2 of 2 truncated: false
}

func ExampleIndex_Search() {
	ix := catalog.NewIndex(exampleTools)
	res, err := ix.Search(json.RawMessage(`{"query":"forecast"}`))
	fmt.Println(len(res), res[0].Name, err)

	_, err = ix.Search(json.RawMessage(`{"q":"forecast"}`))
	fmt.Println(err)
	// Output:
	// 1 mcp__weather__forecast <nil>
	// search arguments do not match the expected shape (unknown field "q"); call it as:
	// tools["$codemode"].search(args: {
	//   /** What the tool should do, in a few words (as in "send a message to a channel"), matched against tool and server names, descriptions and parameters; the best matches come first. Omit query (or pass an empty string) to list the full pool. */
	//   query?: string;
	// }): Promise<Array<{
	//   /** The tool's full name. */
	//   name: string;
	//   /** The tool's complete description. */
	//   description: string;
	//   /** The call form with argument and result types, as in the catalog. */
	//   signature: string;
	// }>>
}
