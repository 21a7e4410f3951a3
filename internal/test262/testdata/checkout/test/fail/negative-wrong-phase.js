/*---
description: expects a parse error but throws at run time
negative:
  phase: parse
  type: SyntaxError
---*/
throw new SyntaxError("at run time");
