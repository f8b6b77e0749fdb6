#!/usr/bin/env bash
# A flock dense enough to slow every step is told before the first step: one "warning:" line
# on stderr with the estimate and what brings it down (docs/gpu.md, "Density"), from every
# command that loads it, once; a sparse flock says nothing.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

dense=$work/dense.toml
cat >"$dense" <<'TOML'
[world]
width = 20.0
height = 20.0
seed = 1

[[species]]
name = "crowd"
count = 3000
perception_radius = 8.0
separation_radius = 2.0
TOML
sparse=$work/sparse.toml
write_tiny_scenario "$sparse"

# Cells of 10 on a 20 x 20 torus: the search is the whole world, 2 999 others.
warning="warning: $dense: about 3e+03 candidates a boid in the grid's search, past 2000"
count_warnings() { grep -c "^warning: " <<<"$err" || true; }

run_murmur step --scenario "$dense" --steps 0 --backend cpu --out "$work/state.csv"
expect_rc 0
expect_stderr_contains "$warning"
expect_stderr_contains "a larger world, a smaller perception_radius (the largest is 8) or fewer boids (3000)"
[[ $(count_warnings) == 1 ]] || { fail "step warned $(count_warnings) times"; describe_run; }
# Before the first step: the warning is the first line.
[[ $(head -n1 <<<"$err") == "$warning"* ]] || { fail "the warning is not the first line"; describe_run; }

run_murmur stats --scenario "$dense" --steps 0 --backend cpu --out "$work/stats.csv"
expect_rc 0
expect_stderr_contains "$warning"

# A sweep warns once, not once a job.
run_murmur sweep --scenario "$dense" --vary species.crowd.count=10,20 --seeds 1 --steps 0 --every 1 \
  --measure-from 0 --backend cpu --jobs 2 --quiet --out "$work/sweep.csv"
expect_rc 0
[[ $(count_warnings) == 1 ]] || { fail "sweep warned $(count_warnings) times"; describe_run; }

run_murmur step --scenario "$sparse" --steps 1 --backend cpu --out "$work/state.csv"
expect_rc 0
[[ $(count_warnings) == 0 ]] || { fail "a sparse flock warned"; describe_run; }

finish
