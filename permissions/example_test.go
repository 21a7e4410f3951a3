package permissions_test

import (
	"fmt"

	"github.com/mcpexec/mcpexec/messages"
	"github.com/mcpexec/mcpexec/permissions"
)

func ExampleDecide() {
	cfg := messages.Config{
		Allow: []string{"mcp__github"},
		Ask:   []string{"mcp__github__create_issue"},
		Deny:  []string{"mcp__github__delete_repo"},
	}
	for _, tool := range []string{"mcp__github__get_me", "mcp__github__create_issue", "mcp__github__delete_repo", "mcp__slack__post"} {
		d, reason := permissions.Decide(cfg, tool)
		fmt.Printf("%-5s %s\n", d, reason)
	}
	fmt.Println(permissions.Excludes(cfg, "mcp__github__delete_repo"))
	// Output:
	// allow the allow rule "mcp__github" permits mcp__github__get_me
	// ask   the ask rule "mcp__github__create_issue" requires confirmation for mcp__github__create_issue
	// deny  permission to call mcp__github__delete_repo is denied by the deny rule "mcp__github__delete_repo"
	// ask   no permission rule matches mcp__slack__post, so the user is asked
	// true
}
