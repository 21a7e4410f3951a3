package hotreload_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mcpexec/mcpexec/hotreload"
)

// BenchmarkCurrent is what a declaration assembly pays to read the switch.
func BenchmarkCurrent(b *testing.B) {
	svc, err := hotreload.Start(context.Background(), newBenchSystem(b), hotreload.Options{
		SettingsPath: filepath.Join(b.TempDir(), "settings.json"),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	b.ReportAllocs()
	for b.Loop() {
		if !svc.Current().EnableExec {
			b.Fatal("switch off")
		}
	}
}

func benchDocument() []byte {
	doc := `{"enableExec": true, "theme": "dark", "permissions": {"allow": [`
	for i := range 40 {
		if i > 0 {
			doc += ", "
		}
		doc += fmt.Sprintf(`"mcp__server%d__tool"`, i)
	}
	return []byte(doc + `], "deny": ["mcp__stripe"]}, "disallowedTools": ["mcp__x"]}`)
}

// BenchmarkReload is the parse and merge work of one settings reload.
func BenchmarkReload(b *testing.B) {
	doc := benchDocument()
	b.ReportAllocs()
	for b.Loop() {
		s, err := hotreload.ParseSettings(doc)
		if err != nil {
			b.Fatal(err)
		}
		hotreload.Merge(s, hotreload.Settings{})
	}
}

// BenchmarkAddAllowRule is one durable "allow always" save: locks, re-read,
// merge, write, fsync, rename, directory fsync.
func BenchmarkAddAllowRule(b *testing.B) {
	path := filepath.Join(b.TempDir(), "settings.json")
	i := 0
	for b.Loop() {
		i++
		if err := hotreload.AddAllowRule(path, fmt.Sprintf("mcp__s__t%d", i)); err != nil {
			b.Fatal(err)
		}
	}
}
