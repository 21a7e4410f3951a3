/*---
description: raw runs without the harness and without "use strict"
flags: [raw]
---*/
if (typeof assert !== "undefined") throw new Error("the harness ran");
if ((function () { return this; })() === undefined) throw new Error("strict");
