/*---
description: includes in flow style
includes: [twice.js]
---*/
assert.sameValue(twice(21), 42);
