package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpexec/mcpexec/elicit"
)

// --ask allow accepts a server's form, leaving its fields to their
// defaults, and declines a URL to visit; a person at the terminal is asked
// by the permission prompter; with no one to ask, a question is declined
// with a reason that says why and what would answer it.
func TestExecElicitorFollowsAsk(t *testing.T) {
	ctx := context.Background()
	tty := console{stdinTerminal: true}
	allow := execElicitor(execFlags{ask: askAllow}, tty, nil)
	res, err := allow.Elicit(ctx, elicit.Request{Mode: "form", Schema: []byte(`{"type":"object"}`)})
	if err != nil || res.Action != elicit.Accept || len(res.Content) != 0 {
		t.Errorf("form under --ask allow: %+v, %v", res, err)
	}
	res, err = allow.Elicit(ctx, elicit.Request{Mode: "form", Schema: []byte(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
	if err != nil || res.Action != elicit.Decline || !strings.Contains(res.Reason, `required field "name" has none`) {
		t.Errorf("a required field without a default under --ask allow: %+v, %v", res, err)
	}
	res, err = allow.Elicit(ctx, elicit.Request{Mode: "url", URL: "https://example.com/connect"})
	if err != nil || res.Action != elicit.Decline {
		t.Errorf("url under --ask allow: %+v, %v", res, err)
	}

	f := execFlags{script: "s.js"}
	prompter := execPrompter(f, tty)
	if e, ok := execElicitor(f, tty, prompter).(*linePrompter); !ok || e != prompter {
		t.Errorf("on a terminal: elicitor %T, want the permission prompter", e)
	}
	for _, tc := range []struct {
		f    execFlags
		c    console
		want string
	}{
		{execFlags{ask: askDeny, script: "s.js"}, tty, "no one is asked (--ask deny); --ask allow accepts a form with its defaults"},
		{execFlags{script: "s.js"}, console{}, "no one is asked (standard input is not a terminal); --ask allow accepts a form with its defaults"},
		{execFlags{script: "-"}, tty, "no one is asked (standard input holds the script); --ask allow accepts a form with its defaults"},
	} {
		e := execElicitor(tc.f, tc.c, execPrompter(tc.f, tc.c))
		res, err := e.Elicit(ctx, elicit.Request{Mode: "form"})
		if err != nil || res.Action != elicit.Decline || res.Reason != tc.want {
			t.Errorf("%+v: %+v, %v; want declined with %q", tc.f, res, err, tc.want)
		}
	}
}

// The form of server-everything's trigger-elicitation-request, cut down
// to one field of each kind.
const everythingForm = `{"type":"object","properties":{
	"name":{"title":"String","type":"string","description":"Your full, legal name"},
	"check":{"title":"Boolean","type":"boolean"},
	"email":{"title":"Email","type":"string","format":"email"},
	"birthdate":{"title":"Date","type":"string","format":"date"},
	"integer":{"title":"Integer","type":"integer","minimum":1,"maximum":100,"default":42},
	"number":{"title":"Number","type":"number","minimum":0,"maximum":1000,"default":3.14},
	"friend":{"type":"string","enum":["Monica","Rachel"],"default":"Monica"},
	"hero":{"type":"string","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Wonder Woman"}]},
	"fish":{"type":"array","items":{"anyOf":[{"const":"fish-1","title":"Tuna"},{"const":"fish-2","title":"Salmon"}]},"default":["fish-1"]}
	},"required":["name"]}`

// A form is filled in field by field in the server's order: an answer that
// does not fit is asked again with the reason, a required field cannot be
// left empty, an empty line leaves the default, and choices take their
// value or their title.
func TestLinePrompterFillsInAFormValidatingEachField(t *testing.T) {
	answers := []string{
		"what?", "a", // the choice is asked again until understood
		"", "Ada", // name: required
		"maybe", "y", // check
		"ada", "ada@example.com", // email
		"1990-13-01", "1990-12-01", // birthdate
		"",           // integer: default
		"1e4", "2.5", // number: above the maximum
		"Joey", "rachel", "Rachel", // friend: values are exact
		"wonder woman", // hero, by its title
		"Tuna, fish-2", // fish
	}
	var out bytes.Buffer
	p := newLinePrompter(strings.NewReader(strings.Join(answers, "\n")+"\n"), &out, style{})
	res, err := p.Elicit(context.Background(), elicit.Request{Server: "everything", Tools: []string{"mcp__everything__trigger-elicitation-request"},
		Message: "Please provide inputs", Mode: "form", Schema: json.RawMessage(everythingForm)})
	if err != nil {
		t.Fatal(err)
	}
	want := elicit.Response{Action: elicit.Accept, Content: map[string]any{
		"name": "Ada", "check": true, "email": "ada@example.com", "birthdate": "1990-12-01",
		"number": 2.5, "friend": "Rachel", "hero": "hero-2", "fish": []any{"fish-1", "fish-2"},
	}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("(-want +got):\n%s\n%s", diff, out.String())
	}
	shown := out.String()
	for _, line := range []string{
		`? The MCP server "everything" asks (during mcp__everything__trigger-elicitation-request)`,
		"  String [Your full, legal name; required]: ",
		"    required\n",
		"    answer y or n\n",
		"    not an email address\n",
		"    not a date, YYYY-MM-DD\n",
		"  Integer [a whole number from 1 to 100; default 42]: ",
		"    must be at most 1000\n",
		`    "rachel" is not one of: Monica, Rachel` + "\n",
		"  hero [one of: hero-1 (Superman), hero-2 (Wonder Woman)]: ",
		"  fish [comma-separated, from: fish-1 (Tuna), fish-2 (Salmon); default fish-1]: ",
		"  → accept\n",
	} {
		if !strings.Contains(shown, line) {
			t.Errorf("the form lacks %q:\n%s", line, shown)
		}
	}
}

// Declining, cancelling, "-" inside the form and end of input each give
// their action; a URL is shown and "done" accepts it.
func TestLinePrompterDeclinesCancelsAndVisits(t *testing.T) {
	form := elicit.Request{Server: "s", Mode: "form", Schema: json.RawMessage(everythingForm)}
	for _, tc := range []struct {
		input string
		req   elicit.Request
		want  elicit.Action
	}{
		{"n\n", form, elicit.Decline},
		{"c\n", form, elicit.Cancel},
		{"a\nAda\n-\n", form, elicit.Cancel},
		{"", form, elicit.Decline},
		{"a\n", elicit.Request{Server: "s", Mode: "url", URL: "https://example.com/connect"}, elicit.Accept},
	} {
		var out bytes.Buffer
		p := newLinePrompter(strings.NewReader(tc.input), &out, style{})
		res, err := p.Elicit(context.Background(), tc.req)
		if err != nil || res.Action != tc.want {
			t.Errorf("input %q: %+v, %v; want %s\n%s", tc.input, res, err, tc.want, out.String())
		}
		if tc.req.Mode == "url" && !strings.Contains(out.String(), "open https://example.com/connect") {
			t.Errorf("the URL is not shown:\n%s", out.String())
		}
	}
}

// A question whose calls ended (an aborted Exec) stops waiting at once.
func TestLinePrompterStopsAFormWhenCancelled(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	p := newLinePrompter(r, &bytes.Buffer{}, style{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Elicit(ctx, elicit.Request{Server: "s", Mode: "form"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Elicit with a cancelled context = %v, want context.Canceled", err)
	}
	// Closing the input ends the reader goroutine, which closes lines.
	_ = w.Close()
	for range p.lines {
	}
}
