// Cleaning and searching text the way models do: Unicode property escapes,
// match indices, set notation.
const titles = ["Crème brûlée — recipe #1!", "Δελτίο Τύπου 2024", "Отчёт за март", "東京の天気 ☀️", "  Hello,   World  "];
const slug = (s: string) =>
  s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
const words = (s: string) => s.match(/\p{L}+/gu) ?? [];
const scripts = titles.map((t) => ({
  greek: /\p{Script=Greek}/u.test(t),
  cyrillic: /\p{sc=Cyrillic}/u.test(t),
  han: /\p{Script=Han}/u.test(t),
  latin: /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]+$/u.test(t),
}));
const noEmoji = "Ship it 🚀🎉 today ✅".replace(/\p{Extended_Pictographic}/gu, "").replace(/\s+/g, " ").trim();
const upperInitials = "ana Ben Émile zoë Ørjan".split(" ").filter((w) => /^\p{Lu}/u.test(w));
const numbers = "Total: 1 234,50 € — ٣ items, ½ off".match(/\p{Nd}+/gu);

// Highlight each match by its position (the d flag).
const text = "error at line 12, warning at line 40";
const spans = [...text.matchAll(/(?<kind>error|warning) at line (?<line>\d+)/dg)].map((m) => ({
  kind: m.groups!.kind,
  line: Number(m.groups!.line),
  kindAt: m.indices!.groups!.kind,
  lineAt: m.indices![2],
}));

// Set notation (the v flag): letters that are not ASCII, consonants.
const accented = "naïve café Zürich".match(/[\p{L}--[a-zA-Z]]/gv);
const consonants = "education".match(/[[a-z]--[aeiou]]/gv)?.join("");

let invalid = "";
try {
  new RegExp("\\p{Greek}", "u");
} catch (e) {
  invalid = (e as Error).name;
}

return {
  slugs: titles.map(slug),
  words: titles.map(words).map((w) => w.length),
  scripts,
  noEmoji,
  upperInitials,
  numbers,
  spans,
  accented,
  consonants,
  invalid,
  flags: [/x/dgv.flags, /x/d.hasIndices, /x/v.unicodeSets],
};
