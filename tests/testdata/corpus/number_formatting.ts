// Numbers formatted for a report, as models format them.
const forecasts = await Promise.all(["Lisbon", "Oslo"].map((city) => tools.mcp__weather__forecast({ city, days: 7 })));
const total = forecasts.flatMap((f) => f.days).reduce((sum: number, d: { high_c: number }) => sum + d.high_c * 1234.5678, 0);
const values = [total, 1234567.891, -0.0004, 1.005, 2.5, 0.1 + 0.2, 1e-7, 999.9995, 12];
return {
  plain: values.map((v) => v.toLocaleString()),
  english: values.map((v) => v.toLocaleString("en-US")),
  money: values.map((v) => v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })),
  whole: values.map((v) => v.toLocaleString(undefined, { maximumFractionDigits: 0 })),
  ungrouped: values.map((v) => v.toLocaleString("en", { useGrouping: false })),
  fixed: values.map((v) => v.toFixed(2)),
};
