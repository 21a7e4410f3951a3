package actors

import (
	"encoding/json"

	"github.com/mcpexec/mcpexec/pool"
	"github.com/mcpexec/mcpexec/sandbox"
)

// Conversions of the pool's projected results (pool.Result) into what the
// two kinds of caller receive: a script gets a JSON value and the images
// beside it (sandbox.CallResult), a flat call's model gets text and images.

var errUnreadableResult = plainError("The tool returned a result that could not be read.")

// scriptResult is what a script's nested call resolves to (ORCH-2).
func scriptResult(res pool.Result) (sandbox.CallResult, error) {
	value, err := valueJSON(res)
	if err != nil {
		return sandbox.CallResult{}, err
	}
	return sandbox.CallResult{Value: value, Images: sandboxImages(res)}, nil
}

// valueJSON is a projected tool value as JSON: the structured content (as
// the server wrote it, key order kept), the text as a JSON string, or null
// (ORCH-2).
func valueJSON(res pool.Result) (json.RawMessage, error) {
	if len(res.JSON) > 0 {
		return res.JSON, nil
	}
	if res.Value == nil {
		return json.RawMessage("null"), nil
	}
	data, err := json.Marshal(res.Value)
	if err != nil {
		return nil, errUnreadableResult
	}
	return data, nil
}

// flatText is a flat call's text for the model: the tool's text as it is,
// its structured content as JSON, nothing for neither.
func flatText(res pool.Result) (string, error) {
	switch v := res.Value.(type) {
	case string:
		return v, nil
	case nil:
		return "", nil
	}
	data, err := valueJSON(res)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

func sandboxImages(res pool.Result) []sandbox.Image {
	if len(res.Images) == 0 {
		return nil
	}
	out := make([]sandbox.Image, len(res.Images))
	for i, img := range res.Images {
		out[i] = sandbox.Image{MIMEType: img.MIMEType, Data: img.Data}
	}
	return out
}

// textInputRequired is a flat call's text when its server asked for input
// in place of a result, which goes back to the caller (ToolResult.InputRequired).
func textInputRequired(tool string) string {
	return "The server of " + tool + " asks for input before it can finish the call."
}
