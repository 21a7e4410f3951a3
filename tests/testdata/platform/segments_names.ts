// Counting what a person sees, and naming codes a tool returned.
const review: string = "Great hotel 👍🏽! Staff were friendly. Would stay again 🇫🇷.";
const graphemes = [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(review)];
const words = [...new Intl.Segmenter("en", { granularity: "word" }).segment(review)]
  .filter((s) => s.isWordLike)
  .map((s) => s.segment);
const sentences = [...new Intl.Segmenter("en", { granularity: "sentence" }).segment(review)].map((s) => s.segment.trim());
const at = new Intl.Segmenter("en", { granularity: "word" }).segment(review).containing(7);

const regions = new Intl.DisplayNames(["en"], { type: "region" });
const languages = new Intl.DisplayNames(["de-DE"], { type: "language" });
const currencies = new Intl.DisplayNames(["fr-FR"], { type: "currency" });
const rows = [
  { country: "DE", lang: "en-GB", cur: "JPY" },
  { country: "JP", lang: "fr", cur: "USD" },
  { country: "BR", lang: "zh-Hans", cur: "EUR" },
].map((r) => `${regions.of(r.country)} | ${languages.of(r.lang)} | ${currencies.of(r.cur)}`);

return {
  chars: review.length,
  graphemes: graphemes.length,
  words,
  sentences,
  wordAt7: at && { segment: at.segment, index: at.index },
  rows,
  unknown: new Intl.DisplayNames("en", { type: "region", fallback: "none" }).of("ZZ") ?? null,
};
