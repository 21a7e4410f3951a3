// structuredClone of tool results and rich values.
const record = await tools.mcp__srv__fetch({ id: 5 });
const copy = structuredClone(record);
copy.tags.push("changed");
const rich = {
  when: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
  map: new Map<string, number[]>([["a", [1, 2]]]),
  set: new Set(["x", "y"]),
  re: /ab+c/gi,
  bytes: new Uint8Array([1, 2, 3]),
  nested: { deep: [{ v: 1 }] },
};
const cloned = structuredClone(rich);
const cyclic: { name: string; self?: unknown } = { name: "loop" };
cyclic.self = cyclic;
const c2 = structuredClone(cyclic) as typeof cyclic;
const failures: string[] = [];
for (const v of [() => 1, Symbol("s")]) {
  try {
    structuredClone({ v });
  } catch (e) {
    failures.push((e as Error).name);
  }
}
return {
  originalTags: record.tags,
  copyTags: copy.tags,
  when: cloned.when.toISOString(),
  sameDate: cloned.when !== rich.when && cloned.when.getTime() === rich.when.getTime(),
  map: [...cloned.map.entries()],
  set: [...cloned.set],
  re: [cloned.re.source, cloned.re.flags],
  bytes: Array.from(cloned.bytes),
  deepIsCopy: cloned.nested.deep[0] !== rich.nested.deep[0],
  cycle: c2.self === c2 && c2 !== cyclic,
  failures,
};
