// Resizable ArrayBuffers and transfer, as code that buffers bytes writes
// them: growing a buffer as data arrives, views that follow its length,
// views that fall out of bounds when it shrinks, and moving the bytes out
// with transfer. Each case is an expression; its value (or the name of
// what it throws) is compared with Node's, recorded in arraybuffer_node.json
// by gen_arraybuffer_node.js.
[
	`(() => { const b = new ArrayBuffer(4, { maxByteLength: 16 }); return [b.byteLength, b.maxByteLength, b.resizable, b.detached]; })()`,
	`(() => { const b = new ArrayBuffer(4); return [b.byteLength, b.maxByteLength, b.resizable, b.detached]; })()`,
	`(() => { const b = new ArrayBuffer(2, { maxByteLength: 8 }); const u = new Uint8Array(b); u.set([1, 2]); b.resize(6); u[5] = 9; return [u.length, Array.from(u)]; })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 8 }); const u = new Uint8Array(b); u.fill(7); b.resize(2); b.resize(4); return Array.from(u); })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 16 }); const fixed = new Uint16Array(b, 2, 2); const tracking = new Uint16Array(b, 2); b.resize(4); return [fixed.length, fixed.byteLength, fixed.byteOffset, tracking.length, tracking.byteOffset]; })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 16 }); const fixed = new Uint8Array(b, 0, 8); b.resize(4); b.resize(8); return fixed.length; })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 16 }); const fixed = new Uint8Array(b, 0, 8); b.resize(4); return fixed.map((x) => x); })()`,
	`(() => { const b = new ArrayBuffer(4, { maxByteLength: 16 }); const u = new Uint8Array(b); const seen = []; for (const x of u) { seen.push(x); if (seen.length === 2) b.resize(8); } return seen.length; })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 16 }); const u = new Uint8Array(b); u.set([1, 2, 3, 4, 5, 6, 7, 8]); const seen = []; u.forEach((x, i) => { if (i === 1) b.resize(3); seen.push(x); }); return seen; })()`,
	`(() => { const b = new ArrayBuffer(4, { maxByteLength: 8 }); const d = new DataView(b); b.resize(8); d.setUint32(4, 0xdeadbeef); return [d.byteLength, d.getUint32(4).toString(16)]; })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 8 }); const d = new DataView(b, 0, 8); b.resize(4); return d.byteLength; })()`,
	`(() => { const b = new ArrayBuffer(4, { maxByteLength: 8 }); b.resize(9); })()`,
	`(() => { new ArrayBuffer(8, { maxByteLength: 4 }); })()`,
	`(() => { new ArrayBuffer(4).resize(2); })()`,
	`(() => { const b = new ArrayBuffer(4); new Uint8Array(b).set([1, 2, 3, 4]); const t = b.transfer(); return [b.detached, b.byteLength, t.byteLength, Array.from(new Uint8Array(t))]; })()`,
	`(() => { const b = new ArrayBuffer(4); new Uint8Array(b).set([1, 2, 3, 4]); const t = b.transfer(6); return Array.from(new Uint8Array(t)); })()`,
	`(() => { const b = new ArrayBuffer(4); new Uint8Array(b).set([1, 2, 3, 4]); return Array.from(new Uint8Array(b.transfer(2))); })()`,
	`(() => { const b = new ArrayBuffer(4, { maxByteLength: 8 }); const t = b.transfer(); const f = t.transferToFixedLength(); return [t.resizable, t.maxByteLength, f.resizable, f.byteLength]; })()`,
	`(() => { const b = new ArrayBuffer(4); const u = new Uint8Array(b); b.transfer(); return [u.length, u.byteLength, u[0]]; })()`,
	`(() => { const b = new ArrayBuffer(4); b.transfer(); b.transfer(); })()`,
	`(() => { const b = new ArrayBuffer(4); const u = new Uint8Array(b); b.transfer(); u.fill(1); })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 16 }); const u = new Uint8Array(b, 4); b.resize(2); return [u.length, u.byteOffset]; })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 16 }); const u = new Uint8Array(b, 4); b.resize(2); u.includes(0); })()`,
	`(() => { const b = new ArrayBuffer(4, { maxByteLength: 16 }); const u = new Uint8Array(b); const s = u.subarray(1); b.resize(8); return [s.length, u.subarray(1, 3).length]; })()`,
	`(() => { const b = new ArrayBuffer(6, { maxByteLength: 6 }); new Uint8Array(b).set([1, 2, 3, 4, 5, 6]); return Array.from(new Uint8Array(b.slice(2, 5))); })()`,
	`(() => { const chunks = [[1, 2, 3], [4, 5], [6, 7, 8, 9]]; const b = new ArrayBuffer(0, { maxByteLength: 64 }); const u = new Uint8Array(b); for (const c of chunks) { const at = b.byteLength; b.resize(at + c.length); u.set(c, at); } return [b.byteLength, u.join("")]; })()`,
	`(() => { const b = new ArrayBuffer(8, { maxByteLength: 16 }); const u = new Uint8Array(b); u.set([5, 1, 4, 2, 8, 3, 7, 6]); b.resize(4); return [Array.from(u.sort()), u.indexOf(4), u.lastIndexOf(5), u.at(-1), u.slice(1).length]; })()`,
	`Object.getOwnPropertyNames(ArrayBuffer.prototype).sort()`,
]
