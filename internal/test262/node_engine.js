// The Node engine of the test262 runner: reads one JSON job per line on
// standard input ({"id", "script", "timeoutMs"}) and answers one JSON line
// per job on standard output ({"id", "phase", "type", "message",
// "printed"}). Each script runs in a fresh context (a realm of its own)
// as global code, with only print and $262 added, as the sandbox runs it;
// the runner applies every rule (harness, modes, negative, async) itself.
'use strict';
const vm = require('node:vm');
const readline = require('node:readline');

const transfer = ArrayBuffer.prototype.transfer;

function describe(e) {
	let type = '', message = '';
	try {
		if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
			const c = e.constructor;
			if (c && typeof c.name === 'string') type = c.name;
			message = String(e.message);
		} else {
			message = String(e);
		}
	} catch {
		message = '(the thrown value could not be described)';
	}
	return { type, message };
}

async function run(job) {
	const printed = [];
	const context = vm.createContext({}, { microtaskMode: undefined });
	const global = vm.runInContext('this', context);
	const host = vm.runInContext('({})', context);
	global.print = (...args) => { printed.push(args.map(String).join(' ')); };
	host.global = global;
	host.evalScript = (src) => vm.runInContext(String(src), context);
	host.detachArrayBuffer = (buf) => { transfer.call(buf); return null; };
	host.gc = () => { throw new TypeError('$262.gc is not supported'); };
	host.createRealm = () => { throw new TypeError('$262.createRealm is not supported'); };
	global.$262 = host;
	let script;
	try {
		script = new vm.Script(job.script, { filename: 'test.js' });
	} catch (e) {
		return { id: job.id, phase: 'parse', ...describe(e), printed: '' };
	}
	let uncaught;
	try {
		script.runInContext(context, { timeout: job.timeoutMs });
	} catch (e) {
		uncaught = e;
	}
	if (uncaught !== undefined) {
		const d = describe(uncaught);
		if (d.message.startsWith('Script execution timed out')) d.type = '';
		return { id: job.id, phase: 'runtime', ...d, printed: printed.join('\n') };
	}
	// The context has no timers: what the script left pending are jobs,
	// which all run before the next turn of the event loop. An async test
	// has printed its verdict by then.
	await new Promise((resolve) => setImmediate(resolve));
	return { id: job.id, phase: '', type: '', message: '', printed: printed.join('\n') };
}

// A script's unhandled rejection or stray exception is its own business,
// never the end of this process.
process.on('unhandledRejection', () => {});
process.on('uncaughtException', () => {});

const lines = readline.createInterface({ input: process.stdin });
let chain = Promise.resolve();
lines.on('line', (line) => {
	const job = JSON.parse(line);
	chain = chain.then(() => run(job)).then((answer) => {
		process.stdout.write(JSON.stringify(answer) + '\n');
	});
});
lines.on('close', () => { chain.then(() => process.exit(0)); });
