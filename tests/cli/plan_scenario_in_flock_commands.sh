#!/usr/bin/env bash
# A plan scenario ([plan], docs/model.md, "The floor-plan generator (seed 003)") has no flock:
# the flock's commands reject it as bad input in one line naming the file, instead of running
# an empty flock, and write nothing.
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

run_murmur step --scenario "$scenario" --backend cpu --steps 1 --out "$out_csv"
expect_plan_rejected
expect_no_file "$out_csv" "step on a plan scenario"

run_murmur stats --scenario "$scenario" --steps 1
expect_plan_rejected

run_murmur soak --scenario "$scenario" --steps 1
expect_plan_rejected

finish
