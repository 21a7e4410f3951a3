// Conversions that fail, caught by the script: the messages it reads are
// JavaScript's own. A tool result has a null prototype (it has no toString),
// so turning it into text fails as it does in Node for such an object; the
// web globals and timers refuse what they cannot convert in Node's words.
// Each message is shown with its length as the script measured it: text
// leaving the sandbox is cleaned of engine internals, the length is not.
const record = await tools.mcp__srv__fetch({ id: 2 });
const attempt = (what: string, f: () => unknown): string => {
  try {
    return `${what}: ok ${JSON.stringify(f())}`;
  } catch (e) {
    const { name, message } = e as Error;
    return `${what}: ${name}: ${message} [${message.length}]`;
  }
};
const bare = Object.create(null);
const seen: string[] = [
  attempt("concatenation", () => "record: " + record),
  attempt("template", () => `record ${record}`),
  attempt("String()", () => String(record)),
  attempt("unary plus", () => +record),
  attempt("comparison", () => (record as any) > 1),
  attempt("array join", () => [record, record].join()),
  attempt("nested field", () => "tags: " + record.tags + "; first: " + record.tags[0]),
  attempt("atob of a bare object", () => atob(bare)),
  attempt("btoa of a symbol", () => btoa(Symbol("s") as any)),
  attempt("TextEncoder of a record", () => new TextEncoder().encode(record)),
  attempt("URL of a bare object", () => new URL(bare)),
  attempt("URL of a symbol", () => new URL(Symbol() as any)),
  attempt("URLSearchParams.append", () => new URLSearchParams().append("k", record)),
  attempt("setTimeout with a symbol delay", () => typeof setTimeout(() => {}, Symbol() as any)),
  attempt("setTimeout with a BigInt delay", () => typeof setTimeout(() => {}, 5n as any)),
  attempt("setTimeout with a record delay", () => typeof setTimeout(() => {}, record)),
  attempt("clearTimeout of odd ids", () => [clearTimeout(Symbol() as any), clearTimeout(1n as any), clearTimeout(bare)]),
  attempt("toLocaleString options", () => (1234.5).toLocaleString("en-US", { maximumFractionDigits: record } as any)),
];
const delayed = await new Promise<string>((resolve) => setTimeout(() => resolve("valueOf delay fired"), { valueOf: () => 3 } as any));
return { seen, delayed, title: record.title, keys: Object.keys(record) };
