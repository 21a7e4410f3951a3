// An end-to-end client built on the official TypeScript SDK. It starts
// `mcpexec serve` over stdio, lists the tools, runs a multi-call script with
// a progress callback, adds a server to the servers file and waits for
// notifications/tools/list_changed, then lists the tools again. It prints
// one JSON object of what it saw; the Go test judges it.
//
// usage: node client.mjs <sdk dir> <mcpexec> <servers file> <settings file> <servers file with one more server>
import { renameSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdkDir, mcpexec, servers, settings, moreServers] = process.argv.slice(2);
const esm = (p) => pathToFileURL(join(sdkDir, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
const { Client } = await import(esm('client/index.js'));
const { StdioClientTransport } = await import(esm('client/stdio.js'));
const { ToolListChangedNotificationSchema } = await import(esm('types.js'));

const client = new Client({ name: 'ts-e2e', version: '1.0.0' });
let listChanged = 0;
let changed;
const changedOnce = new Promise((resolve) => { changed = resolve; });
client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
  listChanged++;
  changed();
});
const transport = new StdioClientTransport({
  command: mcpexec,
  args: ['serve', '--servers', servers, '--settings', settings],
  stderr: 'inherit',
});
await client.connect(transport);

const out = {};
const first = await client.listTools();
out.tools = first.tools.map((t) => t.name);
out.description = first.tools[0]?.description ?? '';

const progress = [];
const result = await client.callTool(
  {
    name: 'Exec',
    arguments: {
      code: `const r = await tools.mcp__srv__fetch({id: 3});
const e = await tools.mcp__text__echo({text: r.owner});
return r.title + " / " + e;`,
    },
  },
  undefined,
  { onprogress: (p) => progress.push(p.message) },
);
out.isError = result.isError ?? false;
out.text = result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
out.progress = progress;

// Add a server the way an editor saves: a new file renamed over the old.
copyFileSync(moreServers, servers + '.tmp');
renameSync(servers + '.tmp', servers);
const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('no list_changed')), 60000).unref());
await Promise.race([changedOnce, timeout]);
out.listChanged = listChanged;
const second = await client.listTools();
out.descriptionAfter = second.tools[0]?.description ?? '';

await client.close();
console.log(JSON.stringify(out));
