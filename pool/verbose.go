package pool

import (
	"bytes"
	"context"
	"io"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"
)

// With the logger at debug level, the pool relays what servers say about
// themselves: each line a stdio server writes to stderr, and the MCP log
// notifications a server sends (it is asked for all of them). At any other
// level only the pool's own events are logged, and a server's stderr serves
// only to explain why it stopped.

func debugging(log zerolog.Logger) bool { return log.GetLevel() <= zerolog.DebugLevel }

// stderrRelay logs each complete line written to it as a debug event of
// server.
type stderrRelay struct {
	log     zerolog.Logger
	server  string
	partial []byte
	// stopping is set once the server was asked to stop (its stdin and
	// stdout closed): what it writes then is its reaction, typically a
	// runtime's stack for the broken pipe, at every normal exit. It stays
	// in the tail that explains an exit, and is not relayed.
	stopping atomic.Bool
}

// maxRelayedLine bounds a line held while waiting for its end.
const maxRelayedLine = 4096

func (w *stderrRelay) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.emit(w.partial[:i])
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > maxRelayedLine {
		w.emit(w.partial)
		w.partial = nil
	}
	return len(p), nil
}

func (w *stderrRelay) emit(line []byte) {
	if line = bytes.TrimRight(line, "\r"); len(line) > 0 && !w.stopping.Load() {
		w.log.Debug().Str("server", w.server).Bytes("stderr", line).Msg("mcp server stderr")
	}
}

// stderrSink is where a stdio server's stderr goes besides the tail kept to
// explain its exit; relay is nil unless its lines are logged.
func stderrSink(log zerolog.Logger, server string, tail io.Writer) (sink io.Writer, relay *stderrRelay) {
	if !debugging(log) {
		return tail, nil
	}
	relay = &stderrRelay{log: log, server: server}
	return io.MultiWriter(tail, relay), relay
}

// relayLogs logs a server's MCP log notifications as debug events.
func relayLogs(log zerolog.Logger, server string) func(context.Context, *mcp.LoggingMessageRequest) {
	return func(_ context.Context, req *mcp.LoggingMessageRequest) {
		log.Debug().Str("server", server).Str("level", string(req.Params.Level)).
			Str("logger", req.Params.Logger).Interface("data", req.Params.Data).Msg("mcp server log")
	}
}

// askForCallLogs asks for every log message about one call: from protocol
// 2026-07-28 the level travels with each request.
func askForCallLogs(params *mcp.CallToolParams) {
	meta := params.GetMeta()
	if meta == nil {
		meta = map[string]any{}
	}
	meta[mcp.MetaKeyLogLevel] = "debug"
	params.SetMeta(meta)
}

// askForLogs asks a server that logs to send everything, once connected
// (the level of a session, before protocol 2026-07-28).
func askForLogs(ctx context.Context, session *mcp.ClientSession) {
	if res := session.InitializeResult(); res != nil && res.Capabilities != nil && res.Capabilities.Logging != nil {
		_ = session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"})
	}
}
