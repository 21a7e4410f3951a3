package elicit_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/elicit"
)

const form = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name"},
	"color":{"type":"string","enum":["red","green"],"enumNames":["Red","Green"],"default":"green"},
	"count":{"type":"integer","default":3,"minimum":1},
	"hero":{"type":"string","oneOf":[{"const":"h1","title":"Superman"},{"const":"h2","title":"Batman"}]},
	"tags":{"type":"array","items":{"enum":["a","b"]},"default":["a"]},
	"notify":{"type":"boolean","default":false}},"required":["name"]}`

func TestFieldsKeepTheServersOrderAndDefaults(t *testing.T) {
	fields, err := elicit.Fields(json.RawMessage(form))
	if err != nil {
		t.Fatal(err)
	}
	one := 1.0
	want := []elicit.Field{
		{Name: "name", Title: "Name", Type: "string", Required: true},
		{Name: "color", Type: "string", Options: []string{"red", "green"}, OptionTitles: []string{"Red", "Green"}, Default: "green", HasDefault: true},
		{Name: "count", Type: "integer", Default: 3.0, HasDefault: true, Minimum: &one},
		{Name: "hero", Type: "string", Options: []string{"h1", "h2"}, OptionTitles: []string{"Superman", "Batman"}},
		{Name: "tags", Type: "array", Options: []string{"a", "b"}, Default: []any{"a"}, HasDefault: true},
		{Name: "notify", Type: "boolean", Default: false, HasDefault: true},
	}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestApplyDefaultsFillsOnlyWhatWasLeftOut(t *testing.T) {
	given := map[string]any{"name": "Ada", "count": 7, "notify": true}
	got := elicit.ApplyDefaults(json.RawMessage(form), given)
	want := map[string]any{"name": "Ada", "count": 7, "notify": true, "color": "green", "tags": []any{"a"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(given) != 3 {
		t.Errorf("the person's answer was changed: %v", given)
	}
	if got := elicit.ApplyDefaults(json.RawMessage(form), nil); got["color"] != "green" || len(got) != 4 {
		t.Errorf("an empty answer: %v", got)
	}
}
