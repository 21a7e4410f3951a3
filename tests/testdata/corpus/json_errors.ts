// JSON.parse on malformed text, as scripts meet it parsing the text of tool
// results: every message the script reads is the one Node gives, position,
// line and column included. A reviver still runs, and its own exceptions
// pass through untouched.
const texts = [
  "",
  "{\"a\" 1}",
  "abc",
  "{\"a\":1} x",
  "{\"a\": 1,}",
  "[1,2",
  "{\"a\":tru}",
  "\"abc",
  "[01]",
  "{\"a\":\"\\q\"}",
  "-",
  "1.",
  "1e",
  "[1 2]",
  "{a:1}",
  "\"a\tb\"",
  "{\"a\":1 \"b\":2}",
  "nul",
  "[\"a\",]",
  "this is a long text that is not json at all, really not",
  "{\"items\": [1, 2, 3], \"next\": nul}",
  "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, x]",
  "{\"a\":\n  [1,\n   2,]\n}",
  "NaN",
  "[object Object]",
  "{\"a\":\"\\u12G4\"}",
  "\"\\",
  "{\"a\":1}}",
  "{}\r\n{}",
  "-x",
  "1e+",
  "[-]",
  "{\"k\":",
  "[",
  "{",
  "\"\u00e9\" x",
  "{\"\u00e9\":1,,}",
  "tr1e",
  "[1,,2]",
  "{\"a\":1,\"b\"}",
  "  ",
  "\u00a0{}",
  "[\"\\\u00e9\"]",
  "\"\\u12",
  "\"\\u",
  "\"abc\\",
  "[1,",
  "{\"a\"",
  "{\"a\":1,",
  "t",
  "tr",
  "\"\\u12\"",
  "1e-",
  "-0x",
  "00",
  "-01",
  "[1]x",
  "\t\"",
  "\u2028",
  "[1,\"\u0001\"]",
];
const outcome = (text: unknown) => {
  try {
    return `ok ${JSON.stringify(JSON.parse(text as string))}`;
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
};
const record = await tools.mcp__srv__fetch({ id: 2 });
const revived = JSON.parse('{"when":"2024-01-02","n":"7"}', (k, v) => (k === "n" ? Number(v) : v));
let fromReviver = "none";
try {
  JSON.parse("[1]", () => { throw new SyntaxError("the reviver's own"); });
} catch (e) {
  fromReviver = (e as Error).message;
}
return {
  messages: texts.map((t) => `${JSON.stringify(t)} => ${outcome(t)}`),
  undefinedText: outcome(undefined),
  objectText: outcome({}),
  resultText: outcome(record),
  revived,
  fromReviver,
  shape: [JSON.parse.name, JSON.parse.length],
};
