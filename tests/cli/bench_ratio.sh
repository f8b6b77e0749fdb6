#!/usr/bin/env bash
# The speed regression check: on llvmpipe the grid step at 4,096 boids of murmur bench's
# built-in flock must stay at least `floor` times faster than the all-pairs pass timed in the
# same run. Only the ratio is compared, never a time: both backends run on the same cores, so the
# machine's speed cancels out. A few seconds: 10 steps of each (about 3 s), up to 3 runs, the
# best one counts.
#
# Why 25 (measured on this project's 2-vCPU llvmpipe machine, 2026-12-01, load average 5-6 from
# other builds; BENCHMARKS.md, "The regression check"): single runs gave 35-370 with --steps 9
# (10.6 once with --steps 5, when another build's burst fell on the grid's few milliseconds),
# the best of 3 runs 104-369 in 6 trials (66-106 with --steps 5, 161-378 beside two busy
# loops). 25 is 4 times below the worst best-of-3 seen with these flags: the check fails when
# the grid loses its speed-up (all cells searched, a grid step several times slower against
# the naive pass), not when the machine is busy. It cannot see a 2x slowdown: the load moves the
# ratio by more than that. A real GPU runs the naive pass in parallel: not checked there.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

floor=25
best=0
for attempt in 1 2 3; do
  run_murmur bench --sizes 4096 --backends grid,naive --steps 9 --warmup 1 --quiet
  expect_rc 0
  if [[ $out != *"renderer: llvmpipe"* ]]; then
    echo "bench_ratio: not llvmpipe ($(grep -m1 '^renderer:' <<<"$out")): the ratio is llvmpipe's; skipped"
    finish
  fi
  row=$(printf '%s\n' "$out" | grep -m1 '^| 4096 |' || true)
  # | N | grid ms/step | grid ns | candidates | expected | neighbours | naive ms/step | naive ns | cpu | cpu ns | naive/grid |
  ratio=$(cut -d'|' -f12 <<<"$row" | tr -d ' ')
  [[ $ratio =~ ^[0-9]+(\.[0-9]+)?$ ]] || { fail "bench row lacks a naive/grid ratio: $row"; describe_run; finish; }
  echo "bench_ratio: run $attempt: naive/grid = $ratio ($row)"
  best=$(awk -v a="$best" -v b="$ratio" 'BEGIN { print (b > a) ? b : a }')
  if awk -v r="$best" -v f="$floor" 'BEGIN { exit !(r >= f) }'; then break; fi
done
awk -v r="$best" -v f="$floor" 'BEGIN { exit !(r >= f) }' ||
  fail "naive/grid at 4096 boids is $best in the best of 3 runs, below the floor $floor"

finish
