/*---
description: passes sloppy, fails strict, so fails
---*/
undeclared = 1;
