// A client of MCP tasks built on the official TypeScript SDK's experimental
// tasks API, that follows one task through its status notifications. It
// starts `mcpexec serve` over stdio and runs Exec as a task whose script
// asks a question first (the task waits, input_required, until the client
// answers it through elicitation), then makes quick nested calls. It
// prints one JSON object of what it saw: the task as created, every
// notifications/tasks/status of that task in order, and the result; the
// Go test judges it.
//
// usage: node taskchanges.mjs <sdk dir> <mcpexec> <servers file> <settings file> <script>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdkDir, mcpexec, servers, settings, code] = process.argv.slice(2);
const esm = (p) => pathToFileURL(join(sdkDir, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
const { Client } = await import(esm('client/index.js'));
const { StdioClientTransport } = await import(esm('client/stdio.js'));
const { TaskStatusNotificationSchema, ElicitRequestSchema } = await import(esm('types.js'));

const client = new Client({ name: 'ts-task-changes', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
const notified = [];
let ended;
const terminal = new Promise((resolve) => {
  ended = resolve;
});
client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
  const { taskId, status, statusMessage } = n.params;
  notified.push({ taskId, status, statusMessage });
  if (['completed', 'failed', 'cancelled'].includes(status)) {
    ended();
  }
});
const asked = [];
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  asked.push(req.params.message);
  return { action: 'accept', content: { answer: 'allow once' } };
});
await client.connect(new StdioClientTransport({
  command: mcpexec,
  args: ['serve', '--servers', servers, '--settings', settings],
  stderr: 'inherit',
}));

const out = {};
const stream = client.experimental.tasks.callToolStream(
  { name: 'Exec', arguments: { code } },
  undefined,
  { task: { ttl: 60000 }, timeout: 120000 },
);
for await (const m of stream) {
  if (m.type === 'taskCreated') {
    out.created = { taskId: m.task.taskId, status: m.task.status, statusMessage: m.task.statusMessage };
  } else if (m.type === 'result') {
    out.resultText = m.result.content?.[0]?.text;
    out.resultIsError = m.result.isError ?? false;
  } else if (m.type === 'error') {
    out.error = String(m.error);
  }
}
// The terminal notification is written before tasks/result answers, or
// soon after: wait for it (the Go test bounds the whole client).
await terminal;
out.notified = notified.filter((n) => n.taskId === out.created?.taskId);
out.asked = asked;
await client.close();
console.log(JSON.stringify(out));
