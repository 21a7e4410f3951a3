// A client of MCP tasks built on the official TypeScript SDK's experimental
// tasks API. It starts `mcpexec serve` over stdio, or reaches one serving
// streamable HTTP at a URL, and runs Exec as a task
// twice: a script that sleeps for six seconds, followed from its creation to
// its result, and a script that writes ledger keys in a loop, cancelled
// while it runs. It prints one JSON object of what it saw; the Go test
// judges it.
//
// usage: node tasks.mjs <sdk dir> <mcpexec> <servers file> <settings file>
//        node tasks.mjs <sdk dir> <URL>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdkDir, mcpexec, servers, settings] = process.argv.slice(2);
const esm = (p) => pathToFileURL(join(sdkDir, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
const { Client } = await import(esm('client/index.js'));
const { StdioClientTransport } = await import(esm('client/stdio.js'));
const { StreamableHTTPClientTransport } = await import(esm('client/streamableHttp.js'));
const { TaskStatusNotificationSchema } = await import(esm('types.js'));

const client = new Client({ name: 'ts-tasks', version: '1.0.0' });
const notified = [];
client.setNotificationHandler(TaskStatusNotificationSchema, (n) => notified.push(n.params.status));
const transport = /^https?:/.test(mcpexec)
  ? new StreamableHTTPClientTransport(new URL(mcpexec))
  : new StdioClientTransport({
      command: mcpexec,
      args: ['serve', '--servers', servers, '--settings', settings],
      stderr: 'inherit',
    });
await client.connect(transport);

const out = { capabilities: client.getServerCapabilities()?.tasks ?? null };
const tools = await client.listTools();
out.execution = tools.tools.find((t) => t.name === 'Exec')?.execution ?? null;

// A six-second script, as a task: created at once, polled to completed.
const started = Date.now();
out.statuses = [];
const stream = client.experimental.tasks.callToolStream(
  { name: 'Exec', arguments: { code: 'await new Promise(r => setTimeout(r, 6000)); return "slept";' } },
  undefined,
  { task: { ttl: 60000 }, timeout: 120000 },
);
for await (const m of stream) {
  if (m.type === 'taskCreated') {
    out.createdAfterMs = Date.now() - started;
    out.createdStatus = m.task.status;
  } else if (m.type === 'taskStatus') {
    out.statuses.push(m.task.status);
  } else if (m.type === 'result') {
    out.resultText = m.result.content?.[0]?.text;
    out.resultIsError = m.result.isError ?? false;
  } else if (m.type === 'error') {
    out.error = String(m.error);
  }
}

// A script that writes keys until stopped: cancelling the task stops it.
const ran = async () => {
  const r = await client.callTool({ name: 'Exec', arguments: { code: 'return await tools.mcp__l__ran({})' } });
  return JSON.parse(r.content[0].text).write.length;
};
const loop = client.experimental.tasks.callToolStream(
  { name: 'Exec', arguments: { code: 'for (let i = 0; ; i++) { await tools.mcp__l__write({key: "k" + i}); await new Promise(r => setTimeout(r, 50)); }' } },
  undefined,
  { task: { ttl: 60000 }, timeout: 120000 },
);
let taskId;
for await (const m of loop) {
  if (m.type === 'taskCreated') {
    taskId = m.task.taskId;
    break;
  }
}
while ((await ran()) < 3) {
  await new Promise((r) => setTimeout(r, 100));
}
const cancelled = await client.experimental.tasks.cancelTask(taskId);
out.cancelledStatus = cancelled.status;
out.writesAtCancel = await ran();
await new Promise((r) => setTimeout(r, 1000));
out.writesLater = await ran();
out.statusAfterCancel = (await client.experimental.tasks.getTask(taskId)).status;

// By now the first task's last notification has come too.
out.notified = notified.slice();
await client.close();
console.log(JSON.stringify(out));
