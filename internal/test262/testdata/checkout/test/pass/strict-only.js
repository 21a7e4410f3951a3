/*---
description: runs strict only
flags: [onlyStrict]
---*/
assert.sameValue((function () { return this; })(), undefined);
