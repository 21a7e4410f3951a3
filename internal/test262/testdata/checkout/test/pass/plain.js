/*---
description: runs in both modes with the harness
---*/
assert.sameValue(1 + 1, 2);
