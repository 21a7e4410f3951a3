// A client of MCP tasks built on the official TypeScript SDK's experimental
// tasks API, in a streamable HTTP session of `mcpexec serve`, recording the
// notifications/tasks/status it hears. Once the session's event stream is
// open (the GET the SDK sends after initializing), it runs Exec as a task
// twice, each script held working until the client, told so, writes the
// ledger key the script waits for: a script that then asks before a call
// (its task waits for input; the question, put through tasks/result, is
// answered "allow once" when the client has been told), and a script that
// then throws (its result fetched after the stream's error). Then it runs a
// plain Exec under a progress token of its own that looks like the
// gateway's reserved one. It prints one JSON object of what it saw; the Go
// test judges it.
//
// usage: node taskstatus.mjs <sdk dir> <URL>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdkDir, url] = process.argv.slice(2);
const esm = (p) => pathToFileURL(join(sdkDir, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
const { Client } = await import(esm('client/index.js'));
const { StreamableHTTPClientTransport } = await import(esm('client/streamableHttp.js'));
const { TaskStatusNotificationSchema, ProgressNotificationSchema, ElicitRequestSchema, CallToolResultSchema } = await import(esm('types.js'));

const client = new Client({ name: 'ts-task-status', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
const notified = [];
client.setNotificationHandler(TaskStatusNotificationSchema, (n) => notified.push(n.params));
// Every progress notification, raw: the SDK's own handler would drop those
// of tokens it did not choose.
const progress = [];
client.setNotificationHandler(ProgressNotificationSchema, (n) => progress.push(n.params));
const asked = [];
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  const taskId = req.params._meta?.['io.modelcontextprotocol/related-task']?.taskId;
  asked.push({ taskId, message: req.params.message });
  if (taskId) {
    await heard(taskId, 'input_required');
  }
  return { action: 'accept', content: { answer: 'allow once' } };
});

// heard waits until taskId was notified of status, or gives up after a
// while (the Go test then finds the notification missing).
const heard = async (taskId, status) => {
  for (let i = 0; i < 300 && !notified.some((n) => n.taskId === taskId && n.status === status); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
};

// The session's event stream carries the notifications: wait for it, so
// that none is sent before it is open.
let streamOpen;
const opened = new Promise((resolve) => { streamOpen = resolve; });
const watchedFetch = async (input, init) => {
  const res = await fetch(input, init);
  if (init?.method === 'GET' && res.ok) {
    streamOpen();
  }
  return res;
};
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: watchedFetch }));
await Promise.race([opened, new Promise((_, reject) => setTimeout(() => reject(new Error('no event stream opened')), 30000).unref())]);

// runTask runs code as a task to its end and says what the stream gave.
// The script waits for key to be written: the client writes it once told
// the task is working.
const runTask = async (code, key) => {
  const seen = { polled: [] };
  const stream = client.experimental.tasks.callToolStream(
    { name: 'Exec', arguments: { code: `await tools.mcp__l__ran({});
while (String(await tools.mcp__l__read({key: "${key}"})) !== "true") { await new Promise(r => setTimeout(r, 100)); }
${code}` } },
    undefined,
    { task: { ttl: 300000 }, timeout: 120000 },
  );
  let released;
  for await (const m of stream) {
    if (m.type === 'taskCreated') {
      seen.taskId = m.task.taskId;
      released = heard(seen.taskId, 'working').then(() =>
        client.callTool({ name: 'Exec', arguments: { code: `return await tools.mcp__l__write({key: "${key}"})` } }));
    } else if (m.type === 'taskStatus') {
      seen.polled.push(m.task.status);
    } else if (m.type === 'result') {
      seen.resultText = m.result.content?.[0]?.text;
      seen.resultIsError = m.result.isError ?? false;
    } else if (m.type === 'error') {
      seen.error = String(m.error);
    }
  }
  await released;
  return seen;
};

const out = {};
out.approved = await runTask('await tools.mcp__l__write({key: "approved"}); return "written";', 'go');
// The last notification may come after the result.
await heard(out.approved.taskId, 'completed');
out.thrown = await runTask('throw new Error("broken on purpose");', 'go on');
await heard(out.thrown.taskId, 'failed');
// The stream reports a failed task as an error: its result says why.
const failed = await client.experimental.tasks.getTaskResult(out.thrown.taskId, CallToolResultSchema);
out.thrown.resultText = failed.content?.[0]?.text;
out.thrown.resultIsError = failed.isError ?? false;
out.asked = asked.slice();

// A progress token of the client's own, shaped like the reserved one.
out.ownToken = 'io.mcpexec/task-status/' + 'A'.repeat(26);
const plain = await client.callTool({
  name: 'Exec',
  arguments: { code: 'await tools.mcp__l__ran({}); await tools.mcp__l__ran({}); return "plain";' },
  _meta: { progressToken: out.ownToken },
});
out.plainText = plain.content?.[0]?.text;

out.notified = notified.slice();
out.progress = progress.slice();
await client.close();
console.log(JSON.stringify(out));
