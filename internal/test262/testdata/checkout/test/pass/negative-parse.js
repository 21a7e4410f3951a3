/*---
description: a parse-phase SyntaxError
negative:
  phase: parse
  type: SyntaxError
---*/
$DONOTEVALUATE();
var = 1;
