// Records Node's results for the scripts beside this file in
// expected.json: what the sandbox must give the model for each. A script
// is the body of an async function, as in the sandbox; TypeScript has its
// types stripped by Node. The text is composed as the sandbox composes a
// result without console output: a string as it is, anything else as JSON.
//
// usage: node gen_expected.js   (with Node 22, from any directory)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { stripTypeScriptTypes } = require('node:module');

async function run(file) {
	let code = '(async function () {\n' + fs.readFileSync(path.join(__dirname, file), 'utf8') + '\n})';
	if (file.endsWith('.ts')) code = stripTypeScriptTypes(code);
	try {
		const value = await (0, eval)(code)();
		if (value === undefined) return { ok: true, text: 'The script produced no return value and no output.' };
		if (typeof value === 'string') return { ok: true, text: value === '' ? '""' : value };
		return { ok: true, text: JSON.stringify(value) };
	} catch (e) {
		return { ok: false, text: `${e.name}: ${e.message}` };
	}
}

(async () => {
	const expected = {};
	for (const file of fs.readdirSync(__dirname).filter((f) => /\.(ts|js)$/.test(f) && f !== 'gen_expected.js').sort()) {
		expected[file] = await run(file);
	}
	fs.writeFileSync(path.join(__dirname, 'expected.json'), JSON.stringify({ node: process.version, expected }, null, '\t') + '\n');
})();
