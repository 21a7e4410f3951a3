package catalog

import (
	"strings"
	"testing"
)

func TestTaskToolsAreTaggedOnTheirJSDocLine(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`)
	plain := Tool{Name: "mcp__s__research", Description: "Researches a topic.\nMore.", InputSchema: schema}
	task := plain
	task.Task = true
	bare := Tool{Name: "mcp__s__bare", InputSchema: schema, Task: true}

	before := Render([]Tool{plain}, Options{}).Body
	if strings.Contains(before, "@task") {
		t.Fatalf("a tool that never runs as a task is tagged:\n%s", before)
	}
	r := NewRenderer(Options{})
	r.Render([]Tool{plain}) // cached untagged: the tag must still appear
	body := r.Render([]Tool{task, bare}).Body
	for _, want := range []string{"/** Researches a topic. @task */\ntools.mcp__s__research(", "/** @task */\ntools.mcp__s__bare("} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	if again := Render([]Tool{task, bare}, Options{}).Body; again != body {
		t.Errorf("the same pool renders differently:\n%s\n---\n%s", again, body)
	}
}
