// Records Node's answers to regexp_cases.js in regexp_node.json.
//
// usage: node gen_regexp_node.js   (from this directory, with Node 22)
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const cases = (0, eval)(fs.readFileSync(path.join(__dirname, 'regexp_cases.js'), 'utf8'));
const answers = cases.map((expr) => {
	try {
		return { expr, value: JSON.stringify((0, eval)(expr)) ?? 'undefined' };
	} catch (e) {
		return { expr, throws: e.name };
	}
});
fs.writeFileSync(path.join(__dirname, 'regexp_node.json'), JSON.stringify({ node: process.version, answers }, null, '\t') + '\n');
