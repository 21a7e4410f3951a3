// An error the script throws itself, after some output.
interface Check {
  name: string;
  pass: boolean;
}
const checks: Check[] = [
  { name: "schema", pass: true },
  { name: "owner", pass: false },
];
for (const c of checks) console.log(`${c.name}: ${c.pass ? "pass" : "FAIL"}`);
const failed = checks.filter((c) => !c.pass);
if (failed.length > 0) {
  throw new RangeError(`${failed.length} check failed: ${failed.map((c) => c.name).join(", ")}`);
}
return "all passed";
