/*---
description: an async test completes once its jobs drain
flags: [async]
---*/
Promise.resolve(1).then(function (v) { assert.sameValue(v, 1); }).then($DONE, $DONE);
