package tests

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/mcpexec/mcpexec"
	"github.com/mcpexec/mcpexec/permissions"
)

// BenchmarkDemoExecCold is one `demo exec --json` of ORCH-1 from a cold
// start: the process, three stdio servers, the settings, a worker, two
// nested calls, and Close.
func BenchmarkDemoExecCold(b *testing.B) {
	script := writeFile(b, "orch1.js", orch1Script)
	for b.Loop() {
		out, err := exec.Command(demoBin, "exec", "--json", "--script", script).Output()
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

var allowAll = permissions.PrompterFunc(func(context.Context, permissions.Question) (permissions.Answer, error) {
	return permissions.Answer{Kind: permissions.AllowOnce}, nil
})

// BenchmarkFacadeExecWarm is one Exec of ORCH-1 on a running System whose
// servers are stdio subprocesses: what a daemon pays per Exec call.
func BenchmarkFacadeExecWarm(b *testing.B) {
	ctx := context.Background()
	sys, err := mcpexec.Start(ctx, mcpexec.Options{
		Servers:  builtinServers("srv", "text", "weather"),
		Prompter: allowAll,
		Workers:  mcpexecWorkers(),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer sys.Close()
	if err := sys.WaitReady(ctx); err != nil {
		b.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"code": orch1Script})
	for b.Loop() {
		if res := sys.Exec(ctx, args, nil); !res.OK {
			b.Fatal(res.Text)
		}
	}
}
