package mcpexec_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/pool"
)

// ExampleSystem_StartRun shows a daemon that asks its person on another
// channel: the run parks on a question, and is resumed when the answer
// comes back, minutes later if need be.
func ExampleSystem_StartRun() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "mcpexec-example")
	defer os.RemoveAll(dir)
	settings := filepath.Join(dir, "settings.json")
	// Reading the notes' text needs the person's approval.
	_ = os.WriteFile(settings, []byte(`{"permissions": {"ask": ["mcp__b__text"]}}`), 0o600)
	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		Servers:      []pool.ServerConfig{{Name: "b", Dial: inMemory(notesServer())}},
		SettingsPath: settings,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sys.Close()
	_ = sys.WaitReady(ctx)

	res := sys.StartRun(ctx, mcpexec.DeclareOptions{}, []byte(`{"code": "return await tools.mcp__b__text({})"}`), nil)
	for res.Pending != nil {
		answers := map[string]mcpexec.Answer{}
		for _, q := range res.Pending.Questions {
			// Put q to the person (a chat message, a web page) and wait.
			fmt.Println("asked:", q.Permission.Tool)
			answers[q.ID] = mcpexec.Answer{Permission: permissions.Answer{Kind: permissions.AllowOnce}}
		}
		if res, err = sys.ResumeRun(ctx, res.Pending.Run, answers, nil); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(res.OK, res.Text)
	// Output:
	// asked: mcp__b__text
	// true first
	// second
}

// ExampleSystem_StartDetached shows a daemon whose client stops waiting on
// a slow script: the run goes on, and is waited on again by its id.
func ExampleSystem_StartDetached() {
	ctx := context.Background()
	allow := permissions.PrompterFunc(func(context.Context, permissions.Question) (permissions.Answer, error) {
		return permissions.Answer{Kind: permissions.AllowOnce}, nil
	})
	sys, err := mcpexec.Start(ctx, mcpexec.Options{Servers: []pool.ServerConfig{{Name: "b", Dial: inMemory(notesServer())}}, Prompter: allow})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sys.Close()
	_ = sys.WaitReady(ctx)

	code := []byte(`{"code": "await new Promise(r => setTimeout(r, 200)); return await tools.mcp__b__text({})"}`)
	res := sys.StartDetached(ctx, mcpexec.DeclareOptions{}, code, mcpexec.DetachOptions{Wait: time.Millisecond}, nil)
	fmt.Println("still running:", res.Running != "")
	// Later, from another request: wait for it again (or CancelRun it).
	res, err = sys.WaitRun(ctx, res.Running, 0, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.OK, res.Text)
	// Output:
	// still running: true
	// true first
	// second
}
