package hotreload_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mcpexec/mcpexec/hotreload"
)

func ExampleStart() {
	dir, _ := os.MkdirTemp("", "settings")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "settings.json")
	_ = os.WriteFile(path, []byte(`{"enableExec": false, "permissions": {"deny": ["mcp__stripe"]}}`), 0o644)

	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	defer system.Shutdown()
	svc, err := hotreload.Start(context.Background(), system, hotreload.Options{SettingsPath: path})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer svc.Close()

	cfg := svc.Current()
	fmt.Println("enableExec:", cfg.EnableExec, "deny:", cfg.Deny)

	// "Allow always" merges the rule into the file and is in effect at once.
	_ = svc.AllowAlways(context.Background(), "mcp__github__create_issue")
	fmt.Println("allow:", svc.Current().Allow)
	data, _ := os.ReadFile(path)
	fmt.Print(string(data))
	// Output:
	// enableExec: false deny: [mcp__stripe]
	// allow: [mcp__github__create_issue]
	// {
	//   "enableExec": false,
	//   "permissions": {
	//     "deny": [
	//       "mcp__stripe"
	//     ],
	//     "allow": [
	//       "mcp__github__create_issue"
	//     ]
	//   }
	// }
}
