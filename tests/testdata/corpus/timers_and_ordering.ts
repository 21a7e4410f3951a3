// Timers, microtasks and their order; clearing; intervals. The timers are
// scheduled so that their due times keep the order of the calls: the order
// they fire in is then the same in any engine, however long the machine
// takes between two calls.
const order: string[] = [];
setTimeout(() => order.push("timeout 1"), 1);
setTimeout(() => order.push("timeout 1, second"), 1);
setTimeout(() => order.push("timeout 5"), 5);
const cancelled = setTimeout(() => order.push("cancelled"), 2);
clearTimeout(cancelled);
queueMicrotask(() => order.push("microtask"));
Promise.resolve().then(() => order.push("promise"));
order.push("sync");
let ticks = 0;
await new Promise<void>((resolve) => {
  const id = setInterval(() => {
    ticks++;
    if (ticks === 3) {
      clearInterval(id);
      resolve();
    }
  }, 2);
});
await new Promise((r) => setTimeout(r, 15));
const args = await new Promise<string>((resolve) => setTimeout((a: string, b: number) => resolve(`${a}${b}`), 1, "x", 7));
const t0 = performance.now();
await new Promise((r) => setTimeout(r, 3));
const elapsed = performance.now() - t0;
const uuid = crypto.randomUUID();
const random = crypto.getRandomValues(new Uint32Array(4));
return {
  order,
  ticks,
  args,
  elapsedIsPositive: elapsed > 0,
  uuidShape: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid),
  randomLength: random.length,
};
