#!/usr/bin/env bash
# The grid the step searches is fine enough: at 4,096 boids of murmur bench's built-in uniform
# flock each boid's candidates (the boids in the 3 x 3 cells about its own, counted on the CPU
# from the flock's grid and state) are near the estimate from the density and the searched
# area, and far below N, which a grid of a few cells gives (seen to fail with the grid capped
# at 4 cells: 4,095 candidates). What the grid is, not how fast: the speed ratio it buys is the
# benchmark's (tools/bench-ratio, BENCHMARKS.md, "The regression check"), which a loaded
# machine moves too much for a test. That the shader visits only those cells is the ratio's
# to see; that it visits all of them is the harness's (docs/harness.md).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

n=4096
run_murmur bench --sizes $n --backends grid --steps 2 --warmup 1 --quiet
expect_rc 0
# The columns by their header's names, so that a column added to the table moves nothing here.
read -r candidates expected < <(printf '%s\n' "$out" | awk -F'|' -v n="$n" '
  /^\| N \|/ && !header { for (i = 2; i < NF; i++) { gsub(/ /, "", $i); column[$i] = i }; header = 1; next }
  header && $2 + 0 == n { print $(column["candidates/boid"]), $(column["expected"]); exit }')
[[ ${candidates:-} =~ ^[0-9]+(\.[0-9]+)?$ && ${expected:-} =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  { fail "bench printed no candidates/boid and expected for N = $n"; describe_run; finish; }
echo "bench_grid_search: candidates/boid $candidates, expected $expected, N $n"
# Uniform boids: the count in the searched cells is Poisson about the estimate; over 4,096 boids
# its mean strays by well under 5%. 25% leaves room for the flock's first steps.
awk -v c="$candidates" -v e="$expected" 'BEGIN { exit !(c > 0.75 * e && c < 1.25 * e) }' ||
  fail "candidates/boid $candidates is not within 25% of the estimate $expected"
# A search of every cell would give N; the grid's nine cells hold a small share of them.
awk -v c="$candidates" -v n="$n" 'BEGIN { exit !(c < n / 16) }' ||
  fail "candidates/boid $candidates is not below N / 16 = $((n / 16)): the grid searched far cells"
finish
