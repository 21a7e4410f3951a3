package cli

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpexec/mcpexec/elicit"
)

// Elicit implements elicit.Elicitor on the terminal. It shows the server's
// question and asks whether to answer, decline or cancel; to answer a form
// it asks for each field in the server's order, showing its description,
// type, choices and default, and asks again, saying why, until the answer
// fits the field. An empty line leaves a field to its default (or out, when
// it is optional); "-" at any field cancels. End of input declines.
//
//	a, answer   fill in the form (or, for a URL, say it was visited)
//	n, no       decline
//	c, cancel   dismiss the question without an answer
func (p *linePrompter) Elicit(ctx context.Context, r elicit.Request) (elicit.Response, error) {
	release, err := p.take(ctx)
	if err != nil {
		return elicit.Response{}, err
	}
	defer release()
	during := ""
	if len(r.Tools) > 0 {
		during = " (during " + strings.Join(r.Tools, ", ") + ")"
	}
	fmt.Fprintf(p.out, "%s %s%s\n  %s\n", p.style.note("?"), p.style.bold(fmt.Sprintf("The MCP server %q asks", r.Server)), p.style.dim(during), r.Message)
	var fields []elicit.Field
	if r.Mode == "url" {
		fmt.Fprintf(p.out, "  open %s\n", r.URL)
	} else if fields, err = elicit.Fields(r.Schema); err != nil {
		fmt.Fprintf(p.out, "  %s\n", p.style.bad("declined: the form cannot be shown: "+err.Error()))
		return elicit.Response{Action: elicit.Decline, Reason: err.Error()}, nil
	}
	choices := "  [a] answer, [n] decline, [c] cancel: "
	if r.Mode == "url" {
		choices = "  [a] done (visited), [n] decline, [c] cancel: "
	}
	for {
		line, err := p.ask(ctx, choices)
		if err != nil {
			return p.unanswered(ctx, err)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "a", "answer", "y", "yes", "done":
			if r.Mode == "url" {
				return p.answered(elicit.Response{Action: elicit.Accept}), nil
			}
			return p.fillIn(ctx, fields)
		case "n", "no", "decline":
			return p.answered(elicit.Response{Action: elicit.Decline, Reason: "the person declined"}), nil
		case "c", "cancel":
			return p.answered(elicit.Response{Action: elicit.Cancel, Reason: "the person cancelled"}), nil
		}
	}
}

// fillIn asks for each field of a form.
func (p *linePrompter) fillIn(ctx context.Context, fields []elicit.Field) (elicit.Response, error) {
	fmt.Fprintf(p.out, "  %s\n", p.style.dim(`an empty line keeps the default or leaves an optional field out; "-" cancels`))
	content := map[string]any{}
	for _, f := range fields {
		for {
			line, err := p.ask(ctx, "  "+fieldPrompt(f)+": ")
			if err != nil {
				return p.unanswered(ctx, err)
			}
			line = strings.TrimSpace(line)
			if line == "-" {
				return p.answered(elicit.Response{Action: elicit.Cancel, Reason: "the person cancelled"}), nil
			}
			if line == "" {
				if f.Required && !f.HasDefault {
					fmt.Fprintf(p.out, "    %s\n", p.style.bad("required"))
					continue
				}
				break // the pool fills in the default, if any
			}
			v, err := fieldValue(f, line)
			if err != nil {
				fmt.Fprintf(p.out, "    %s\n", p.style.bad(err.Error()))
				continue
			}
			content[f.Name] = v
			break
		}
	}
	return p.answered(elicit.Response{Action: elicit.Accept, Content: content}), nil
}

// answered shows the outcome under the question.
func (p *linePrompter) answered(r elicit.Response) elicit.Response {
	fmt.Fprintf(p.out, "  %s\n", p.style.dim("→ "+string(r.Action)))
	return r
}

// unanswered is the outcome of a question that got no answer: cancelled
// when the calls waiting for it ended, declined at end of input.
func (p *linePrompter) unanswered(ctx context.Context, err error) (elicit.Response, error) {
	if ctx.Err() != nil {
		return elicit.Response{Action: elicit.Cancel}, ctx.Err()
	}
	return p.answered(elicit.Response{Action: elicit.Decline, Reason: err.Error()}), nil
}

// fieldPrompt shows a field: its title, description, kind, choices and
// default.
func fieldPrompt(f elicit.Field) string {
	label := f.Title
	if label == "" {
		label = f.Name
	}
	var notes []string
	if f.Description != "" {
		notes = append(notes, f.Description)
	}
	switch {
	case len(f.Options) > 0 && f.Type == "array":
		notes = append(notes, "comma-separated, from: "+strings.Join(optionList(f), ", "))
	case len(f.Options) > 0:
		notes = append(notes, "one of: "+strings.Join(optionList(f), ", "))
	case f.Type == "boolean":
		notes = append(notes, "y/n")
	case f.Type == "integer" || f.Type == "number":
		kind := "a number"
		if f.Type == "integer" {
			kind = "a whole number"
		}
		switch {
		case f.Minimum != nil && f.Maximum != nil:
			kind += fmt.Sprintf(" from %v to %v", *f.Minimum, *f.Maximum)
		case f.Minimum != nil:
			kind += fmt.Sprintf(" of at least %v", *f.Minimum)
		case f.Maximum != nil:
			kind += fmt.Sprintf(" of at most %v", *f.Maximum)
		}
		notes = append(notes, kind)
	case formatNames[f.Format] != "":
		notes = append(notes, formatNames[f.Format])
	}
	if f.Required {
		notes = append(notes, "required")
	}
	if f.HasDefault {
		notes = append(notes, "default "+showValue(f.Default))
	}
	if len(notes) == 0 {
		return label
	}
	return label + " [" + strings.Join(notes, "; ") + "]"
}

// formatNames say what a string of a format looks like.
var formatNames = map[string]string{
	"email":     "an email address",
	"uri":       "a URI",
	"date":      "a date, YYYY-MM-DD",
	"date-time": "a date and time, YYYY-MM-DDThh:mm:ssZ",
}

// optionList shows a choice's values, each with its title when it has one.
func optionList(f elicit.Field) []string {
	out := make([]string, len(f.Options))
	for i, o := range f.Options {
		out[i] = o
		if i < len(f.OptionTitles) && f.OptionTitles[i] != "" && f.OptionTitles[i] != o {
			out[i] = o + " (" + f.OptionTitles[i] + ")"
		}
	}
	return out
}

// showValue shows a default as a person would type it.
func showValue(v any) string {
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

// fieldValue reads a typed answer, or says why it does not fit the field.
func fieldValue(f elicit.Field, line string) (any, error) {
	switch f.Type {
	case "boolean":
		switch strings.ToLower(line) {
		case "y", "yes", "true":
			return true, nil
		case "n", "no", "false":
			return false, nil
		}
		return nil, errors.New("answer y or n")
	case "integer":
		n, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			return nil, errors.New("not a whole number")
		}
		return n, inRange(f, float64(n))
	case "number":
		n, err := strconv.ParseFloat(line, 64)
		if err != nil {
			return nil, errors.New("not a number")
		}
		return n, inRange(f, n)
	case "array":
		var out []any
		for _, part := range strings.Split(line, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			v, err := option(f, part)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	if len(f.Options) > 0 {
		return option(f, line)
	}
	return line, checkFormat(f.Format, line)
}

// inRange checks a number against the field's bounds.
func inRange(f elicit.Field, n float64) error {
	switch {
	case f.Minimum != nil && n < *f.Minimum:
		return fmt.Errorf("must be at least %v", *f.Minimum)
	case f.Maximum != nil && n > *f.Maximum:
		return fmt.Errorf("must be at most %v", *f.Maximum)
	}
	return nil
}

// option reads one choice: its value, or its title (any case).
func option(f elicit.Field, s string) (string, error) {
	if len(f.Options) == 0 || slices.Contains(f.Options, s) {
		return s, nil
	}
	for i, title := range f.OptionTitles {
		if title != "" && strings.EqualFold(title, s) {
			return f.Options[i], nil
		}
	}
	return "", fmt.Errorf("%q is not one of: %s", s, strings.Join(optionList(f), ", "))
}

// checkFormat checks a string of a known format.
func checkFormat(format, s string) error {
	var ok bool
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		ok = err == nil && a.Address == s
	case "uri":
		u, err := url.Parse(s)
		ok = err == nil && u.Scheme != ""
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		ok = err == nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		ok = err == nil
	default:
		return nil
	}
	if !ok {
		return errors.New("not " + formatNames[format])
	}
	return nil
}
