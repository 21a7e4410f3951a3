/*---
description: fails in both modes
---*/
throw new Test262Error("failing on purpose");
