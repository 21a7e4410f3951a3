// Decoding and copying what tools return: base64 file contents, bytes as
// text, deep copies of records.
const file = "Zm9vLGJhcgrDqXTDqSwzCuKCrDEsNQo="; // foo,bar / été,3 / €1,5
const bytes = Uint8Array.from(atob(file), (c) => c.charCodeAt(0));
const csv = new TextDecoder().decode(bytes);
const rows = csv.trim().split("\n").map((line) => line.split(","));
const encoded = btoa(String.fromCharCode(...new TextEncoder().encode("naïve → ok")));
const roundTrip = new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
const lenient = new TextDecoder().decode(new Uint8Array([0x61, 0xe2, 0x82, 0x62, 0xff]));
let strict = "";
try {
  new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xc3]));
} catch (e) {
  strict = e.name;
}
let bad = "";
try {
  atob("not base64!");
} catch (e) {
  bad = e.name;
}
const record = JSON.parse('{"id": 7, "tags": ["a"], "__proto__": {"admin": true}, "when": "2024-01-02"}');
const copy = structuredClone(record);
copy.tags.push("b");
const big = "données ".repeat(20000);
const bigRoundTrip = new TextDecoder().decode(new TextEncoder().encode(big)) === big;
const bigBase64 = atob(btoa("x".repeat(300000))).length;
return {
  rows,
  encoded,
  roundTrip,
  lenient,
  strict,
  bad,
  copyKeys: Object.keys(copy),
  admin: copy.admin,
  originalTags: record.tags,
  copyTags: copy.tags,
  bigRoundTrip,
  bigBase64,
};
