package permissions_test

import (
	"testing"

	"github.com/mcpexec/mcpexec/permissions"
	"github.com/mcpexec/mcpexec/toolpool"
)

// A person approving a call is told what its server says about the tool,
// in a few words, and nothing when it said nothing.
func TestDescribeHintsSaysWhatTheServerSays(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		hints toolpool.Annotations
		want  string
	}{
		{toolpool.Annotations{}, ""},
		{toolpool.Annotations{ReadOnly: &yes, Idempotent: &yes}, "read-only"},
		{toolpool.Annotations{Destructive: &yes}, "destructive"},
		{toolpool.Annotations{Destructive: &no, Idempotent: &yes}, "not destructive, idempotent"},
		{toolpool.Annotations{Destructive: &yes, OpenWorld: &yes}, "destructive, reaches the outside world"},
		{toolpool.Annotations{OpenWorld: &no, Title: "Search"}, ""},
	}
	for _, c := range cases {
		if got := permissions.DescribeHints(c.hints); got != c.want {
			t.Errorf("DescribeHints(%+v) = %q, want %q", c.hints, got, c.want)
		}
	}
}
