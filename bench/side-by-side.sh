#!/usr/bin/env bash
# Runs the project's Exec benchmarks and the warm Node anchor (bench/node-anchor) in one
# sitting, ROUNDS times, each round printing the load average first: on a shared machine only
# ratios measured in the same round mean anything.
# Usage: bench/side-by-side.sh [CHECKOUT] [ROUNDS]   (NODE selects the node binary)
set -euo pipefail
P=$(cd "${1:-.}" && pwd); R=${2:-3}; NODE=${NODE:-node}
ANCHOR=$(cd "$(dirname "$0")/node-anchor" && pwd)
BIN=$(mktemp -d); trap 'rm -rf "$BIN"' EXIT
cd "$P"
go test -c -o "$BIN/actors.test" ./actors >/dev/null
go test -c -o "$BIN/sandbox.test" ./sandbox >/dev/null
for r in $(seq "$R"); do
  echo "## round $r load $(cut -d' ' -f1 /proc/loadavg)"
  (cd actors && "$BIN/actors.test" -test.run '^$' -test.bench 'ExecTrivial|ExecConcurrent50x20' -test.benchtime 2s 2>&1 | grep -E '^Benchmark')
  (cd sandbox && "$BIN/sandbox.test" -test.run '^$' -test.bench 'WorkerNestedCall|WorkerTrivial' -test.benchtime 2s 2>&1 | grep -E '^Benchmark')
  (cd "$ANCHOR" && echo "node-warm $("$NODE" bench-warm.mjs 2>/dev/null)")
done
