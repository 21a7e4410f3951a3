// Records Node's answers to arraybuffer_cases.js in arraybuffer_node.json.
//
// usage: node gen_arraybuffer_node.js   (from this directory, with Node 22)
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const cases = (0, eval)(fs.readFileSync(path.join(__dirname, 'arraybuffer_cases.js'), 'utf8'));
const answers = cases.map((expr) => {
	try {
		return { expr, value: JSON.stringify((0, eval)(expr)) ?? 'undefined' };
	} catch (e) {
		return { expr, throws: e.name };
	}
});
fs.writeFileSync(path.join(__dirname, 'arraybuffer_node.json'), JSON.stringify({ node: process.version, answers }, null, '\t') + '\n');
