/*---
description: an async test that never calls $DONE
flags: [async]
---*/
Promise.resolve();
