// Base64 and text encoding, including the UTF-8 idioms models use.
const toBase64 = (s: string): string => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const fromBase64 = (b: string): string => new TextDecoder().decode(Uint8Array.from(atob(b), (c) => c.charCodeAt(0)));

const record = await tools.mcp__srv__fetch({ id: 3 });
const payload = JSON.stringify({ id: record.id, title: record.title, note: "naïve café ✓ 😀" });
const encoded = toBase64(payload);
const bytes = new TextEncoder().encode("€uro");
const target = new Uint8Array(4);
const into = new TextEncoder().encodeInto("héllo", target);
let bad = "";
try {
  btoa("✓");
} catch (e) {
  bad = (e as Error).name;
}
return {
  plain: [btoa("hello world"), atob("aGVsbG8gd29ybGQ="), btoa(""), atob("YQ"), btoa("\u00ff\u00fe")],
  encoded,
  roundTrip: JSON.parse(fromBase64(encoded)),
  bytes: Array.from(bytes),
  into: [into.read, into.written, Array.from(target)],
  hex: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""),
  decoded: new TextDecoder("utf-8").decode(new Uint8Array([0x68, 0xc3, 0xa9, 0xe2, 0x9c, 0x93])),
  bom: new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length,
  bad,
};
