// Retries with exponential backoff on setTimeout, around a tool that fails.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function withRetry<T>(fn: () => Promise<T>, attempts = 3, baseMs = 2): Promise<{ value?: T; error?: string; tries: number }> {
  let tries = 0;
  for (;;) {
    tries++;
    try {
      return { value: await fn(), tries };
    } catch (e) {
      if (tries >= attempts) return { error: (e as Error).message, tries };
      await sleep(baseMs * 2 ** (tries - 1));
    }
  }
}

let flaky = 0;
const eventually = await withRetry(async () => {
  if (++flaky < 3) throw new Error(`attempt ${flaky} failed`);
  return tools.mcp__srv__fetch({ id: 4 });
});
const never = await withRetry(() => tools.mcp__text__fail({ message: "service unavailable" }), 2);
const missing = await withRetry(() => tools.mcp__srv__fetch({ id: 99 }), 2, 1);
return {
  eventually: { title: eventually.value?.title, tries: eventually.tries },
  never,
  missing,
};
