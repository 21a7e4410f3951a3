// The MCP conformance suite's client command: it runs the demo CLI as the
// client of one scenario. The suite calls `node client.mjs <server-url>` with
// the scenario in MCP_CONFORMANCE_SCENARIO and its data (a pre-registered
// client's id and secret) in MCP_CONFORMANCE_CONTEXT; MCPEXEC_DEMO names the
// demo binary. The demo connects to the server as an entry of a servers file,
// authorizes it with OAuth when asked (the authorization page is "opened" by
// browser.mjs, which follows the redirect back to the demo's loopback
// listener, as a person's browser would), then runs a script that calls the
// scenario's tool. The exit status is the demo's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [serverURL] = process.argv.slice(2);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const demo = process.env.MCPEXEC_DEMO;
if (!serverURL || !demo) {
  console.error('usage: MCPEXEC_DEMO=<demo binary> node client.mjs <server-url>');
  process.exit(2);
}

// The tool each scenario expects a call of. initialize only connects: its
// server lists no tools, and the suite checks the handshake it received.
const calls = {
  initialize: null,
  tools_call: ['add_numbers', { a: 5, b: 3 }],
  'sse-retry': ['test_reconnection', {}],
  'elicitation-sep1034-client-defaults': ['test_client_elicitation_defaults', {}],
  // Every call the scenario lists, with its arguments: their parameters
  // marked x-mcp-header must reach the server as Mcp-Param-* headers.
  'http-custom-headers': (context.toolCalls ?? []).map((c) => [c.name, c.arguments]),
  // The focal tool's input schema, as the model is shown it, echoed back.
  'json-schema-2020-12-preservation': 'echo-schema',
  // Every tool the script can reach, called: a tool whose x-mcp-header
  // marks are invalid must not be among them.
  'http-invalid-tool-headers': 'call-every-tool',
};
const call = scenario.startsWith('auth/') ? ['test-tool', {}] : calls[scenario];
if (call === undefined) {
  console.error(`client.mjs: no script for scenario ${JSON.stringify(scenario)}`);
  process.exit(2);
}

const prefix = 'mcp__conformance__';
const callText = ([tool, args]) => `await tools[${JSON.stringify(prefix + tool)}](${JSON.stringify(args)})`;
let script;
if (call === null) {
  script = 'return Object.keys(tools);';
} else if (call === 'call-every-tool') {
  // One argument object fits every tool the scenario lists.
  const args = { region: 'us-west1', value: 'v', data: {}, items: [], nil: null, score: 1, field1: 'a', field2: 'b' };
  script = `const called = [];
for (const name of Object.keys(tools)) {
  if (name.startsWith(${JSON.stringify(prefix)})) { await tools[name](${JSON.stringify(args)}); called.push(name); }
}
return called;`;
} else if (call === 'echo-schema') {
  script = null; // written once the demo has listed the tool (below)
} else if (Array.isArray(call[0])) {
  script = `const out = [];\n${call.map((c) => `out.push(${callText(c)});`).join('\n')}\nreturn out;`;
} else {
  script = `return ${callText(call)};`;
}

// A pre-registered client comes from the environment, as a user's would:
// the servers file names the variables, empty when the scenario has none.
const oauth = {
  clientId: '${CONFORMANCE_CLIENT_ID:-}',
  clientSecret: '${CONFORMANCE_CLIENT_SECRET:-}',
  // The suite's authorization servers accept any client ID metadata
  // document URL without fetching it.
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
};
const dir = mkdtempSync(join(tmpdir(), 'mcpexec-conformance-'));
let status = 1;
try {
  const servers = join(dir, 'servers.json');
  writeFileSync(servers, JSON.stringify({ mcpServers: { conformance: { url: serverURL, oauth } } }));
  if (script === null) {
    // The input schema the model is shown for the focal tool (the flat
    // declaration, with Exec off), passed back as the server listed it.
    const settings = join(dir, 'settings.json');
    writeFileSync(settings, JSON.stringify({ enableExec: false }));
    const listed = spawnSync(demo, ['tools', '--servers', servers, '--settings', settings], { encoding: 'utf8' });
    if (listed.status !== 0) {
      process.stderr.write(listed.stderr ?? '');
      throw new Error(`demo tools failed (${listed.status})`);
    }
    const focal = JSON.parse(listed.stdout).find((d) => d.name === prefix + 'json_schema_2020_12_tool');
    if (!focal) throw new Error('demo tools did not declare json_schema_2020_12_tool');
    script = `return ${callText(['json_schema_echo', { schema: focal.input_schema }])};`;
  }
  const scriptFile = join(dir, 'script.js');
  writeFileSync(scriptFile, script);
  const env = {
    ...process.env,
    CONFORMANCE_CLIENT_ID: context.client_id ?? '',
    CONFORMANCE_CLIENT_SECRET: context.client_secret ?? '',
    BROWSER: join(here, 'browser.mjs'),
    // browser.mjs runs on this same node.
    PATH: dirname(process.execPath) + delimiter + (process.env.PATH ?? ''),
  };
  const res = spawnSync(demo, [
    'exec', '--servers', servers, '--script', scriptFile, '--ask', 'allow',
    '--oauth-tokens', join(dir, 'tokens'), '--open-browser', '--auth-wait', '20s',
  ], { env, stdio: 'inherit' });
  status = res.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
