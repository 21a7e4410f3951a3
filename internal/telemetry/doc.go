// Package telemetry is mcpexec's OpenTelemetry instrumentation: the spans of
// an Exec call and of everything it starts, the metrics, and the W3C trace
// context that crosses to worker processes and MCP servers.
//
// It is built on the OpenTelemetry API alone; the embedder (or the CLI,
// from the OTEL_* environment) supplies the providers. A nil *Telemetry is
// telemetry switched off: every method is then a nil check and nothing
// else, so the nested-call path costs nothing when no provider is set.
//
// # The span tree of one Exec call
//
//	execute_tool Exec                 (tools/call Exec, SERVER, in the gateway)
//	└─ mcpexec.sandbox.run            one run on one worker: acquire (spawn or reuse), run, outcome
//	   ├─ mcpexec.script.prepare      recorded in the worker process, sent back with its result
//	   ├─ mcpexec.script.compile      (idem)
//	   ├─ mcpexec.script.evaluate     (idem)
//	   └─ execute_tool mcp__s__t      one nested call: permission event, outcome, bytes
//	      ├─ mcpexec.permission.prompt  time spent waiting for the person, when asked
//	      └─ tools/call t             CLIENT: the MCP request; its context goes to the
//	                                  server in params._meta and the traceparent header
//
// Spans carry names, sizes, durations and outcomes, never argument or result
// values; Options.RecordArguments adds a nested call's arguments
// (gen_ai.tool.call.arguments), for debugging.
package telemetry
