/*---
description: a left-out feature is skipped
features: [SharedArrayBuffer, Symbol]
---*/
new SharedArrayBuffer(1);
