// Runs one corpus script under Node, as the reference for what the sandbox
// must return. The script's tools are the demo binary's own MCP servers
// (demo serve-mcp NAME), spoken to over stdio, and the output is composed
// the way the sandbox composes its result text.
//
// usage: node node_harness.js DEMO_BINARY SCRIPT.js
// where SCRIPT.js is "(async function (tools, console) {\n" + the script +
// "\n})"; stacks name it script.ts and count lines from the script's first
// line, as the sandbox does.
// prints one JSON line: {"ok": boolean, "text": string}
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const vm = require('node:vm');

const [demoBin, scriptFile] = process.argv.slice(2);

class Client {
	constructor(server) {
		this.server = server;
		this.proc = spawn(demoBin, ['serve-mcp', server], { stdio: ['pipe', 'pipe', 'ignore'] });
		this.next = 1;
		this.waiting = new Map();
		let buf = '';
		this.proc.stdout.setEncoding('utf8');
		this.proc.stdout.on('data', (chunk) => {
			buf += chunk;
			for (let i; (i = buf.indexOf('\n')) >= 0;) {
				const line = buf.slice(0, i);
				buf = buf.slice(i + 1);
				if (line.trim() !== '') this.receive(JSON.parse(line));
			}
		});
		this.ready = this.request('initialize', {
			protocolVersion: '2025-06-18',
			capabilities: {},
			clientInfo: { name: 'corpus-reference', version: '1.0.0' },
		}).then(() => this.send({ jsonrpc: '2.0', method: 'notifications/initialized' }));
	}
	receive(msg) {
		const waiter = this.waiting.get(msg.id);
		if (!waiter) return;
		this.waiting.delete(msg.id);
		if (msg.error) waiter.reject(new Error(msg.error.message));
		else waiter.resolve(msg.result);
	}
	send(msg) {
		this.proc.stdin.write(JSON.stringify(msg) + '\n');
	}
	request(method, params) {
		const id = this.next++;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.send({ jsonrpc: '2.0', id, method, params });
		});
	}
	// call resolves to what the sandbox gives a script: the structured
	// content, else the text, else null; an isError reply rejects with its
	// text. Objects have a null prototype, as in the sandbox.
	async call(tool, args) {
		await this.ready;
		const res = await this.request('tools/call', { name: tool, arguments: args });
		const text = (res.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
		// The sandbox names the tool before the tool's own text.
		if (res.isError) throw new Error(text !== '' ? `mcp__${this.server}__${tool}: ${text}` : text);
		if (res.structuredContent !== undefined) return withNullPrototypes(res.structuredContent);
		return text !== '' ? text : null;
	}
	// close ends the server and resolves once it has exited.
	close() {
		return new Promise((resolve) => {
			if (this.proc.exitCode !== null || this.proc.signalCode !== null) return resolve();
			this.proc.once('exit', resolve);
			this.proc.kill();
		});
	}
}

// withNullPrototypes copies a JSON value with every object's prototype null
// and "__proto__" keys left out, as the sandbox hands tool results over.
const withNullPrototypes = (v) => {
	if (Array.isArray(v)) return v.map(withNullPrototypes);
	if (v === null || typeof v !== 'object') return v;
	const out = Object.create(null);
	for (const [k, x] of Object.entries(v)) if (k !== '__proto__') out[k] = withNullPrototypes(x);
	return out;
};

const clients = new Map();
const tools = new Proxy({}, {
	get(_, name) {
		if (typeof name !== 'string' || !name.startsWith('mcp__')) return undefined;
		const [, server, ...rest] = name.split('__');
		return (args = {}) => {
			if (!clients.has(server)) clients.set(server, new Client(server));
			return clients.get(server).call(rest.join('__'), args);
		};
	},
});

// The sandbox renders values as JSON, an Error as "Name: message".
const replacer = (_, v) => (v instanceof Error ? (v.message ? `${v.name}: ${v.message}` : v.name) : v);
const show = (v) => {
	if (typeof v === 'string') return v;
	if (v === undefined) return 'undefined';
	if (typeof v === 'function') return '[Function]';
	if (typeof v === 'bigint') return `${v}n`;
	if (v === null || typeof v !== 'object') return String(v);
	return JSON.stringify(v, replacer);
};
const logs = [];
const log = (...args) => logs.push(args.map(show).join(' '));
const sandboxConsole = { log, info: log, warn: log, error: log, debug: log };

function finish(ok, section) {
	const parts = [];
	if (logs.length > 0) parts.push(logs.join('\n'));
	if (section !== undefined) parts.push(ok && logs.length > 0 ? 'Return value:\n' + section : section);
	if (parts.length === 0) parts.push('The script produced no return value and no output.');
	const line = JSON.stringify({ ok, text: parts.join('\n\n') }) + '\n';
	Promise.all([...clients.values()].map((c) => c.close())).then(() => process.stdout.write(line, () => process.exit(0)));
}

const run = vm.runInThisContext(fs.readFileSync(scriptFile, 'utf8'), { filename: 'script.ts', lineOffset: -1 });
run(tools, sandboxConsole).then(
	(value) => {
		if (value === undefined || typeof value === 'function') return finish(true, undefined);
		if (typeof value === 'string') return finish(true, value === '' ? '""' : value);
		finish(true, JSON.stringify(value, replacer));
	},
	(e) => finish(false, e instanceof Error ? (e.message ? `${e.name}: ${e.message}` : e.name) : `Uncaught ${show(e)}`),
);
