/*---
description: a runtime-phase TypeError
negative:
  phase: runtime
  type: TypeError
---*/
null.property;
