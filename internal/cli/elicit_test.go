package cli

import (
	"context"
	"testing"

	"github.com/mcpexec/mcpexec/elicit"
)

// --ask allow accepts a server's form, leaving its fields to their
// defaults, and declines a URL to visit; other modes leave the questions
// to the library, which declines them.
func TestExecElicitorFollowsAsk(t *testing.T) {
	ctx := context.Background()
	allow := execElicitor(execFlags{ask: askAllow})
	res, err := allow.Elicit(ctx, elicit.Request{Mode: "form", Schema: []byte(`{"type":"object"}`)})
	if err != nil || res.Action != elicit.Accept || len(res.Content) != 0 {
		t.Errorf("form under --ask allow: %+v, %v", res, err)
	}
	res, err = allow.Elicit(ctx, elicit.Request{Mode: "url", URL: "https://example.com/connect"})
	if err != nil || res.Action != elicit.Decline {
		t.Errorf("url under --ask allow: %+v, %v", res, err)
	}
	for _, mode := range []askMode{"", askDeny, askPrompt} {
		if e := execElicitor(execFlags{ask: mode}); e != nil {
			t.Errorf("--ask %q: an elicitor, want none", mode)
		}
	}
}
