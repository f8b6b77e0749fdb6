#!/usr/bin/env bash
# `murmur bench --plan`: a table row per size for the floor plan's step on the CPU reference and
# GpuPlan, the per-agent ratio between the sizes, living agents that fell once deaths applied,
# and one-line errors for the flock's flags. A smoke run: speed belongs in BENCHMARKS.md.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

run_murmur bench --plan --sizes 100,400 --steps 2 --warmup 32 --quiet
expect_rc 0
expect_stderr_empty
expect_stdout_contains "built-in plan scenario"
expect_stdout_contains "median of 2 steps after 32 warm-up steps (deaths apply after step 30)"
expect_stdout_contains "| N | living | cpu ms/step | gpu ms/step |"
expect_stdout_contains "| cpu us/agent-step | gpu us/agent-step | gpu/cpu |"
expect_stdout_contains "us per agent-step at N = 400 over that at N = 100: cpu "
for n in 100 400; do
  row=$(grep "^| $n |" <<<"$out" || true)
  [[ -n $row ]] || { fail "no row for $n agents"; describe_run; continue; }
  # living before the first and after the last timed step: deaths apply from step 31.
  IFS='|' read -r _ _ living _ <<<"$row"
  first=${living%-*}
  last=${living#*-}
  ((first <= n && last <= first && last < n)) || fail "row for $n: living '$living' does not fall"
  [[ $row != *—* ]] || fail "row for $n skipped a backend: $row"
done
# The stage table: a row per size, every stage timed, and the sum.
expect_stdout_contains "gpu step by stage: median ms, glFinish() after each stage"
expect_stdout_contains "| N | move | points | index | crowd | grid clear |"
expect_stdout_contains "| grid sort | grid scan | steer | sum |"
for n in 100 400; do
  stages=$(sed -n '/gpu step by stage/,$p' <<<"$out" | grep "^| $n |" || true)
  [[ $stages =~ ^\|\ $n(\ \|\ [0-9.]+){9}\ \|$ ]] ||
    fail "no stage row of 9 figures for $n: '$stages'"
done

# The defaults: the issue's sizes, timed past the plan's warm-up.
run_murmur bench --help
expect_stdout_contains "sizes 10000,100000, 10 timed steps after 40 warm-up steps"

for flag in "--scenario $source_dir/scenarios/floor-plan.toml" "--backends cpu" "--max-cpu 5" \
  "--max-naive 5" "--ecosystem"; do
  run_murmur bench --plan --sizes 100 $flag
  expect_usage_error "--plan" "${flag%% *}"
done
run_murmur bench --plan --sizes 10
expect_usage_error "--sizes"

finish
