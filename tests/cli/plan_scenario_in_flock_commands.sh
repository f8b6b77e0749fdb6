#!/usr/bin/env bash
# A plan scenario ([plan], docs/model.md, "The floor-plan generator (origin 003)") has no flock:
# the flock's commands that do not run plans reject it as bad input in one line naming the
# file, instead of running an empty flock, and write nothing. `murmur step` runs it: its state
# is its paths, the CSV `murmur plan` writes, and what does not apply to a plan (a state file in
# or out, the naive backend) is refused in one line. (`murmur stats` on a plan:
# tests/cli/plan_stats.sh.)
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/plan.toml
printf '[world]\nwidth = 800\nheight = 800\n\n[plan]\n' >"$scenario"
out_csv=$work/after.csv

expect_plan_rejected() {
  expect_rc 2
  expect_stderr_contains "plan.toml: a plan scenario ([plan]) has no flock to start"
  local lines
  lines=$(grep -c 'plan scenario' <<<"$err" || true)
  [[ $lines -eq 1 ]] || { fail "expected the error on one line"; describe_run; }
}

for backend in cpu gpu; do
  run_murmur step --scenario "$scenario" --backend $backend --steps 12 --out "$out_csv" --quiet
  expect_rc 0
  run_murmur plan --scenario "$scenario" --backend $backend --steps 12 --out "$work/plan.csv" --quiet
  expect_rc 0
  cmp -s "$out_csv" "$work/plan.csv" ||
    fail "murmur step --backend $backend on a plan does not write murmur plan's CSV"
  rm -f "$out_csv"
done
run_murmur step --scenario "$scenario" --backend cpu --steps 1 --out "$work/after.npy"
expect_usage_error "--out" "plan scenario" ".csv"
run_murmur step --scenario "$scenario" --backend gpu-naive --steps 1 --out "$out_csv"
expect_usage_error "--backend" "cpu or gpu"
run_murmur step --scenario "$scenario" --backend cpu --steps 1 --in "$work/plan.csv" --out "$out_csv"
expect_usage_error "--in" "plan scenario"
expect_no_file "$out_csv" "a refused step on a plan scenario"
expect_no_file "$work/after.npy" "a refused step on a plan scenario"

run_murmur soak --scenario "$scenario" --steps 1
expect_plan_rejected

finish
