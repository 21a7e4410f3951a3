package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Result is the outcome of one run. Text is exactly what the model receives;
// the other fields let the host present and account for the run.
type Result struct {
	// OK is false when the script failed: it threw, did not compile, ran
	// over its budget, was aborted, or the runtime crashed.
	OK bool
	// Text is the model-facing result: console output and the return value,
	// or console output and the failure reason, with any truncation stated.
	Text string
	// Value is the return value as JSON when there was one and it was kept
	// whole (nil otherwise: a script that returned nothing has a nil Value,
	// one that returned null the JSON null). Omitted when empty, so that
	// crossing from a worker process keeps the difference.
	Value json.RawMessage `json:",omitempty"`
	// Logs is the console output kept, and Error the failure reason.
	Logs  string
	Error string
	// Images collected from nested calls, capped; the model gets them as
	// attachments.
	Images []Image
	// Calls lists the nested calls the script made, in order, including
	// those rejected over the call cap.
	Calls []string
	// Whole is the return value too long for Text, when the run had a
	// Reference: its size, and whether it reached the Reference's Sink.
	Whole *Whole `json:",omitempty"`
}

// succeed builds the Result of a script that returned v.
func (x *execution) succeed(v goja.Value) Result {
	var (
		value  json.RawMessage
		shown  string
		chars  int
		exists = v != nil && !goja.IsUndefined(v)
		whole  *Whole
	)
	if s, isString := stringValue(v); exists && isString {
		shown, chars = s, utf8.RuneCountInString(s)
		switch {
		case s == "":
			// An empty string is a value: show it as one, never as empty
			// content (EDGE-10).
			value = json.RawMessage(`""`)
			shown, chars = string(value), len(value)
		case chars <= x.limits.MaxResultChars:
			value = appendJSONString(nil, s)
		case x.req.Reference != nil:
			o := x.newOutbound(resultMode, 0)
			o.tee = x.referenceStream(0)
			if err := o.writeString(s); err != nil {
				return x.fail(err.Error())
			}
			whole = x.wholeValue(o, chars)
		}
	} else if exists {
		o := x.newOutbound(resultMode, x.limits.MaxResultChars*utf8.UTFMax)
		// Nothing is passed on before the value is surely over the cap:
		// more bytes than it holds characters at four bytes each.
		o.tee = x.referenceStream(x.limits.MaxResultChars * utf8.UTFMax)
		var skipped bool
		err := x.guard(func() (err error) {
			skipped, err = o.value(v, 0)
			return err
		})
		switch {
		case err != nil && isStop(err):
			return x.fail(err.Error())
		case err != nil:
			var thrown *thrownError
			if errors.As(err, &thrown) {
				// Describing it may run getters again, but only once more:
				// describeThrown does not describe what its own reading
				// throws.
				return x.fail(x.describeThrown(thrown.value))
			}
			return x.fail(describeExportError(err))
		}
		exists = !skipped
		shown, chars = string(o.buf), o.chars
		if o.total == len(o.buf) {
			value = o.buf
		}
		if exists && chars > x.limits.MaxResultChars {
			whole = x.wholeValue(o, chars)
		}
	}
	res := x.result(true, "")
	var parts []string
	if section := x.console.section(); section != "" {
		parts = append(parts, section)
	}
	if exists {
		section := shown
		if chars > x.limits.MaxResultChars {
			section = truncateRunes(shown, x.limits.MaxResultChars) + "\n" + x.truncationNote(chars, whole)
			value = nil
		}
		if res.Logs != "" {
			section = "Return value:\n" + section
		}
		parts = append(parts, section)
		res.Value = value
		res.Whole = whole
	}
	if dropped := x.droppedImages(); dropped > 0 {
		parts = append(parts, msgImagesDropped(dropped))
	}
	if len(parts) == 0 {
		parts = append(parts, msgNoOutput)
	}
	res.Text = strings.Join(parts, "\n\n")
	return res
}

// referenceStream is the stream a return value's JSON is teed to when the
// run has a Reference (nil otherwise): nothing is passed on before more
// than hold bytes were written.
func (x *execution) referenceStream(hold int) *valueStream {
	if x.req.Reference == nil || x.req.Reference.Sink == nil {
		return nil
	}
	sink := x.req.Reference.Sink
	return newValueStream(func(piece []byte) error {
		_, err := sink.Write(piece)
		return err
	}, hold, x.limits.MaxKeptBytes)
}

// wholeValue finishes the reference stream of a return value over the cap,
// of chars characters as the model reads it, and describes what it passed
// on; nil without a Reference.
func (x *execution) wholeValue(o *outbound, chars int) *Whole {
	if o.tee == nil {
		return nil
	}
	kept, err := o.tee.finish()
	if err != nil {
		x.logger.Warn().Err(err).Msg("sandbox: the whole return value could not be passed on")
		kept = false
	}
	return &Whole{Bytes: int64(o.total), Chars: int64(chars), Kept: kept}
}

// truncationNote ends the first part of a return value over the cap: how
// long the value is, and where the whole of it is (whole is nil when the
// run was not asked for it).
func (x *execution) truncationNote(chars int, whole *Whole) string {
	switch {
	case whole == nil:
		return msgResultTruncated(chars)
	case !whole.Kept:
		return msgResultNotKept(chars, whole.Bytes)
	case x.req.Reference.ID != "":
		return msgResultKept(chars, x.req.Reference.ID)
	}
	return msgResultTruncated(chars)
}

// wholeLost marks a return value said to be kept whole as not kept, and
// says so: the text names where it would be.
func (r *Result) wholeLost() {
	whole := *r.Whole
	whole.Kept = false
	r.Whole = &whole
	r.Text += "\n\n" + msgWholeLost
}

// fail builds a failure Result that keeps the console output written before
// the failure (EDGE-9).
//
// The reason is capped as a return value is: a script can throw a string
// of any length, and a tool can fail with a text of any length.
func (x *execution) fail(reason string) Result {
	reason = capFailure(reason, x.limits.MaxResultChars)
	res := x.result(false, reason)
	res.Text = failureText(&x.console, reason)
	return res
}

// capFailure cuts a failure reason longer than max characters, and says
// so after the part kept.
func capFailure(reason string, max int) string {
	if len(reason) <= max {
		return reason
	}
	chars := utf8.RuneCountInString(reason)
	if chars <= max {
		return reason
	}
	return truncateRunes(reason, max) + "\n" + msgFailureTruncated(chars)
}

// failureText is the model-facing text of a failure: the console output
// written before it, then the reason.
func failureText(console *consoleLog, reason string) string {
	if section := console.section(); section != "" {
		return section + "\n\n" + reason
	}
	return reason
}

func (x *execution) result(ok bool, reason string) Result {
	logs, _, _ := x.console.text()
	x.mu.Lock()
	defer x.mu.Unlock()
	return Result{
		OK:     ok,
		Logs:   logs,
		Error:  reason,
		Images: append([]Image(nil), x.images...),
		Calls:  append([]string(nil), x.calls...),
	}
}

// CrashResult is the failure Result of a run whose sandbox failed before it
// could report, with the nested calls known to have been made.
func CrashResult(calls []string) Result {
	res := failure(msgRunCrashed)
	res.Calls = calls
	return res
}

// ExpiredResult is res, the Result of a run cancelled because it waited for
// a person's answer longer than it may, told as that.
func ExpiredResult(res Result) Result {
	if res.OK {
		return res
	}
	if strings.HasSuffix(res.Text, res.Error) {
		res.Text = strings.TrimSuffix(res.Text, res.Error) + msgExpired
	} else {
		res.Text = msgExpired
	}
	res.Error = msgExpired
	return res
}

// UnavailableResult is the failure Result of a run that found no worker:
// aborted if ctx ended, otherwise the sandbox could not be started.
func UnavailableResult(ctx context.Context) Result {
	return unavailable(ctx, nil)
}

// UnavailableResultFor is the Result of a run that got no worker because
// Acquire failed with err.
func UnavailableResultFor(ctx context.Context, err error) Result {
	return unavailable(ctx, err)
}

func unavailable(ctx context.Context, err error) Result {
	switch {
	case ctx.Err() != nil:
		return failure(msgAborted)
	case errors.Is(err, ErrAllParked):
		return failure(msgAllWorkersParked)
	}
	return failure(msgWorkerUnavailable)
}

// failure is a Result for a run that never started.
func failure(reason string) Result {
	return Result{Error: reason, Text: reason}
}

func (x *execution) droppedImages() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.dropped
}

// guard runs f, turning the panics goja raises when script code (a getter)
// throws or is interrupted outside a JavaScript call into errors.
func (x *execution) guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			switch e := p.(type) {
			case *goja.InterruptedError:
				if s, ok := e.Value().(*stopError); ok {
					err = s
					return
				}
				err = errOverBudget
			case *goja.Exception:
				err = &thrownError{value: e.Value()}
			default:
				panic(p)
			}
		}
	}()
	return f()
}

// thrownError is script code (a getter) throwing while the host read a
// value.
type thrownError struct{ value goja.Value }

func (e *thrownError) Error() string { return "Uncaught exception" }

func describeExportError(err error) string {
	var e *exportError
	switch {
	case errors.As(err, &e) && len(e.path) > 0:
		return "The return value cannot be given to the model: its " + e.Error() + "."
	case errors.As(err, &e):
		return "The return value cannot be given to the model: it is " + e.reason + "."
	}
	return "The return value cannot be given to the model: " + err.Error() + "."
}
