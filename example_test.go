package mcpexec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/broadcast"
	"github.com/mcpexec/mcpexec/internal/testservers"
	"github.com/mcpexec/mcpexec/pool"
)

// Example shows one turn of an agent loop: declare tools, append what the
// catalog channel says, and answer the model's Exec call.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "mcpexec-example")
	defer os.RemoveAll(dir)
	settings := filepath.Join(dir, "settings.json")
	_ = os.WriteFile(settings, []byte(`{"permissions": {"allow": ["mcp__b"]}}`), 0o600)

	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		// A real daemon passes its users' servers, e.g. ServersFile.
		Servers:      []pool.ServerConfig{{Name: "b", Dial: testservers.DialInMemory(testservers.Behaviour(testservers.BehaviourOptions{}))}},
		SettingsPath: settings,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sys.Close()
	_ = sys.WaitReady(ctx)

	// Each model request: tools[] and the meta messages to append.
	history := broadcast.NewHistory()
	for _, d := range sys.Declarations(mcpexec.DeclareOptions{}) {
		fmt.Println("declared:", d.Name)
	}
	msgs, _ := sys.Broadcast(history, mcpexec.DeclareOptions{})
	for _, m := range msgs {
		history.Append(m)
	}
	fmt.Println("meta messages appended:", len(msgs))

	// The model answers with an Exec call.
	args, _ := json.Marshal(map[string]string{"code": `
		const s = await tools.mcp__b__structured({});
		console.log("items:", s.items.length);
		return await tools.mcp__b__text({});`})
	res := sys.Exec(ctx, args, func(summary string) { /* update the live summary */ })
	fmt.Println(res.OK)
	fmt.Println(res.Summary)
	fmt.Println(res.Text)
	// Output:
	// declared: Exec
	// meta messages appended: 2
	// true
	// 2 tool calls
	// mcp__b__structured
	// mcp__b__text
	// items: 2
	//
	// Return value:
	// first
	// second
}
