// Parallel calls, aggregation and number formatting for a report.
interface Day {
  day: number;
  summary: string;
  high_c: number;
  low_c: number;
}
interface Forecast {
  city: string;
  days: Day[];
}
const cities = ["Lisbon", "Oslo", "Nairobi", "Lima"];
const forecasts: Forecast[] = await Promise.all(cities.map((city) => tools.mcp__weather__forecast({ city, days: 5 })));
const stats = forecasts.map(({ city, days }) => {
  const highs = days.map((d) => d.high_c);
  const mean = highs.reduce((a, b) => a + b, 0) / highs.length;
  const counts = days.reduce<Record<string, number>>((acc, d) => ((acc[d.summary] = (acc[d.summary] ?? 0) + 1), acc), {});
  const [mostCommon] = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { city, mean: Number(mean.toFixed(1)), max: Math.max(...highs), min: Math.min(...days.map((d) => d.low_c)), mostCommon: mostCommon[0] };
});
stats.sort((a, b) => b.mean - a.mean);
const lines = stats.map((s, i) => `${i + 1}. ${s.city.padEnd(8)} avg ${s.mean.toFixed(1).padStart(5)}°C (${s.min}..${s.max}) mostly ${s.mostCommon}`);
console.log(lines.join("\n"));
return { warmest: stats[0].city, spread: +(stats[0].mean - stats[stats.length - 1].mean).toFixed(2) };
