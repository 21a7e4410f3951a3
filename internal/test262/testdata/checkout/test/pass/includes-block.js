/*---
description: includes in block style, and a flag list
includes:
  - twice.js
flags:
  - noStrict
---*/
assert.sameValue(twice(2), 4);
with ({}) {} // sloppy only
