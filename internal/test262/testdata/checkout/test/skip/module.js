/*---
description: module code is skipped
flags: [module]
---*/
export var x = 1;
