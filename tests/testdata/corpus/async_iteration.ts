// Async generators and for await: paging over a tool, and a custom async
// iterable.
async function* recordsByTag(tags: string[]): AsyncGenerator<{ tag: string; id: number }> {
  for (const tag of tags) {
    const { records } = await tools.mcp__srv__list({ tag });
    for (const r of records) yield { tag, id: r.id };
  }
}

class Countdown implements AsyncIterable<number> {
  constructor(private readonly from: number) {}
  async *[Symbol.asyncIterator]() {
    for (let i = this.from; i > 0; i--) {
      await new Promise((r) => setTimeout(r, 1));
      yield i;
    }
  }
}

const seen: string[] = [];
for await (const { tag, id } of recordsByTag(["finance", "ops", "draft"])) {
  seen.push(`${tag}:${id}`);
}
const counted: number[] = [];
for await (const n of new Countdown(3)) counted.push(n);
const settled: string[] = [];
for await (const v of [Promise.resolve("a"), "b", new Promise<string>((r) => setTimeout(() => r("c"), 2))]) settled.push(v);

async function take<T>(it: AsyncIterable<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (out.length === n) break;
  }
  return out;
}
return { seen, counted, settled, firstTwo: await take(recordsByTag(["release", "people", "planning"]), 2) };
