// URL and URLSearchParams, as a script builds links and queries.
const base = new URL("https://api.example.com/v2/");
const search = new URL("search", base);
search.searchParams.set("q", "release checklist & more");
search.searchParams.append("tag", "q3");
search.searchParams.append("tag", "ünïcode ✓");
search.searchParams.set("page", String(2));
search.hash = "results";

const parsed = new URL("HTTPS://User:Pa%20ss@Example.COM:443/a/./b/../c%2Fd?x=1&y=two+words&x=3#frag");
const params = new URLSearchParams("a=1&b=%20space&c=plus+sign&a=2&empty=&flag");
params.delete("b");
params.sort();

const relative = ["../up?k=v", "/root", "//cdn.example.org/lib.js", "?only=query", "#only-hash", "sub/page.html"].map(
  (r) => new URL(r, "https://example.com/dir/file.html?old=1#old").href,
);
const record = await tools.mcp__srv__fetch({ id: 1 });
const link = new URL(`/records/${record.id}`, "https://app.example.com");
link.search = new URLSearchParams({ title: record.title, owner: record.owner }).toString();

let invalid = "";
try {
  new URL("no scheme here");
} catch (e) {
  invalid = `${(e as Error).name}: ${(e as Error).message}`;
}
return {
  search: search.toString(),
  parts: [parsed.protocol, parsed.username, parsed.password, parsed.host, parsed.hostname, parsed.port, parsed.pathname, parsed.search, parsed.hash, parsed.origin],
  x: parsed.searchParams.getAll("x"),
  y: parsed.searchParams.get("y"),
  params: [params.toString(), [...params.entries()], params.has("flag"), params.get("missing")],
  relative,
  link: link.href,
  json: JSON.stringify({ u: new URL("http://h.example:8080/p?q=1") }),
  invalid,
  ports: [new URL("http://h:80/").port, new URL("ws://h:81/").host, new URL("https://h:0443/").host],
  canParse: [URL.canParse("https://ok.example"), URL.canParse("nope")],
};
