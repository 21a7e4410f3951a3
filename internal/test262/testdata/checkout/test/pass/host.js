/*---
description: $262 and print are there
---*/
assert.sameValue($262.global, this === undefined ? globalThis : this);
assert.sameValue($262.evalScript("var fromEvalScript = 7; fromEvalScript"), 7);
var buf = new ArrayBuffer(8);
$262.detachArrayBuffer(buf);
assert.sameValue(buf.byteLength, 0);
print("printed");
