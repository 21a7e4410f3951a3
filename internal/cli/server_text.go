package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The text server: every tool shows one reply shape a script must handle
// (text only, nothing at all, an image only, an error, a delay, a call that
// never returns). None declares an outputSchema.

const textInstructions = "Each tool shows one reply shape: echo answers with text, nothing with no content, " +
	"image with one PNG, fail with an error, sleep after a delay, and hang never answers."

// onePixelPNG is a 1x1 transparent PNG, encoded once.
var onePixelPNG = func() []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 1, 1))); err != nil {
		panic(err) // encoding a valid in-memory image cannot fail
	}
	return b.Bytes()
}()

// maxSleep bounds the sleep tool so a typo cannot park a call for hours.
const maxSleep = 10 * time.Minute

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

type failArgs struct {
	Message string `json:"message" jsonschema:"the error message to return"`
}

type sleepArgs struct {
	MS int `json:"ms" jsonschema:"how long to wait, in milliseconds"`
}

type noArgs struct{}

func newTextServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "text", Version: "1.0.0"},
		&mcp.ServerOptions{Instructions: textInstructions})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Return the given text, as text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return textResult(in.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "nothing", Description: "Return neither text nor structured content."},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return textResult(), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "image", Description: "Return one PNG image and nothing else."},
		func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.ImageContent{MIMEType: "image/png", Data: onePixelPNG},
			}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Fail with the given message (an isError result)."},
		func(_ context.Context, _ *mcp.CallToolRequest, in failArgs) (*mcp.CallToolResult, any, error) {
			msg := in.Message
			if msg == "" {
				msg = "failed as asked"
			}
			return errorResult(msg), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sleep", Description: "Wait, then answer with text."},
		func(ctx context.Context, req *mcp.CallToolRequest, in sleepArgs) (*mcp.CallToolResult, any, error) {
			d := min(max(time.Duration(in.MS)*time.Millisecond, 0), maxSleep)
			if token := req.Params.GetProgressToken(); token != nil {
				// As long-running tools do: say what is going on.
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Message: "sleeping", Progress: 0, Total: float64(d.Milliseconds()),
				})
			}
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return textResult(fmt.Sprintf("slept %d ms", d.Milliseconds())), nil, nil
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "Never answer; returns only when the call is cancelled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	return s
}
