// The order promise jobs, async functions, thenables, queueMicrotask and
// the Promise combinators run in, as written and transformed, against Node.
const log = [];
async function a1() { log.push("a1 start"); await a2(); log.push("a1 end"); }
async function a2() { log.push("a2"); }
async function r() { return Promise.resolve("r"); }
async function r2() { return "r2"; }
r().then((v) => log.push(v));
r2().then((v) => log.push(v));
a1();
Promise.resolve().then(() => log.push("p1")).then(() => log.push("p2")).then(() => log.push("p3")).then(() => log.push("p4"));
queueMicrotask(() => log.push("qm"));
(async () => { log.push("iife"); await null; log.push("after await null"); await new Promise((res) => res()); log.push("after await promise"); })();
const thenable = { then(res) { log.push("thenable then"); res("t"); } };
(async () => { const v = await thenable; log.push("got " + v); })();
Promise.all([1, Promise.resolve(2)]).then((v) => log.push("all " + v));
Promise.race([new Promise((r) => setTimeout(r, 5, "slow")), Promise.resolve("fast")]).then((v) => log.push("race " + v));
Promise.allSettled([Promise.reject(new Error("x")), 1]).then((v) => log.push("settled " + v.map((s) => s.status)));
Promise.any([Promise.reject(1), Promise.resolve(2)]).then((v) => log.push("any " + v));
log.push("sync end");
await new Promise((r) => setTimeout(r, 10));
return log;
