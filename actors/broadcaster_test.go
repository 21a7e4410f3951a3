package actors_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/mcpexec/mcpexec/actors"
	"github.com/mcpexec/mcpexec/catalog"
	"github.com/mcpexec/mcpexec/declare"
	"github.com/mcpexec/mcpexec/pool"
)

// countingRender renders with a real renderer and counts the renders.
func countingRender(renders *atomic.Int32) func([]catalog.Tool) catalog.Catalog {
	r := catalog.NewRenderer(catalog.Options{})
	return func(tools []catalog.Tool) catalog.Catalog {
		renders.Add(1)
		return r.Render(tools)
	}
}

func has(tools []catalog.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// The broadcaster follows the pool: when the pool moves, the views in use
// are built and rendered again before anyone asks, and asking then costs no
// render.
func TestBroadcasterRendersAheadWhenThePoolMoves(t *testing.T) {
	system := newSystem(t)
	p := startPool(t, system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")}})
	subscribe(t, system, p, "mcp__b__text")
	var renders atomic.Int32
	b := actors.StartBroadcaster(system, actors.BroadcasterOptions{Pool: p, Render: countingRender(&renders)})
	t.Cleanup(b.Stop)

	v, err := b.View(p.Snapshot(), declare.Agent{})
	if err != nil || !has(v.Tools, "mcp__b__text") || v.Catalog.Catalog().Total == 0 {
		t.Fatalf("view %+v, %v", v, err)
	}
	again, _ := b.View(p.Snapshot(), declare.Agent{})
	if again != v {
		t.Error("the same snapshot and agent made a second view")
	}
	before := renders.Load()
	if _, err := p.Call(context.Background(), "mcp__b__add_tool", json.RawMessage(`{"name":"fresh"}`)); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return renders.Load() > before })
	waitUntil(t, func() bool { _, ok := p.Snapshot().Lookup("mcp__b__fresh"); return ok })
	rendered := renders.Load()
	v, err = b.View(p.Snapshot(), declare.Agent{})
	if err != nil || !has(v.Tools, "mcp__b__fresh") {
		t.Fatalf("view after the change: %v", err)
	}
	if renders.Load() != rendered {
		t.Errorf("the view of the new pool was rendered on request, not ahead of it")
	}
}

// A crash of the broadcaster (a bug in rendering one agent's catalog) fails
// that request; views for other agents, and later requests, are served.
func TestBroadcasterCrashFailsThatRequestOnly(t *testing.T) {
	system := newSystem(t)
	p := startPool(t, system, actors.PoolConfig{Servers: []pool.ServerConfig{behaviour("b")}})
	subscribe(t, system, p, "mcp__b__text")
	r := catalog.NewRenderer(catalog.Options{})
	b := actors.StartBroadcaster(system, actors.BroadcasterOptions{Render: func(tools []catalog.Tool) catalog.Catalog {
		if has(tools, "mcp__b__echo") {
			panic("renderer bug")
		}
		return r.Render(tools)
	}})
	t.Cleanup(b.Stop)
	echo := declare.Agent{Allowed: []string{"mcp__b__echo"}}
	text := declare.Agent{Allowed: []string{"mcp__b__text"}}
	if _, err := b.View(p.Snapshot(), echo); err == nil {
		t.Fatal("a view whose rendering panicked was returned")
	}
	for range 2 {
		if v, err := b.View(p.Snapshot(), text); err != nil || !has(v.Tools, "mcp__b__text") {
			t.Fatalf("view for another agent after the crash: %v", err)
		}
		if _, err := b.View(p.Snapshot(), echo); err == nil {
			t.Fatal("the failing view was served")
		}
	}
}
