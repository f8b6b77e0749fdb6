#!/usr/bin/env bash
# `murmur compare` on a plan scenario (docs/harness.md, "Plans"): the CPU reference and GpuPlan
# side by side, bit-identical on llvmpipe (exit 0, the exact bound), a bound given by
# --max-divergent, and one-line errors for the flock's flags on a plan and the plan's flag on a
# flock. (That a fault fails it is shown by tests/gpu/test_plan_harness.cpp, which plants one
# through the test-only switch the command line does not expose.)
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

origin_plan=$source_dir/scenarios/floor-plan.toml

run_murmur compare --scenario "$origin_plan" --quiet
expect_rc 0
expect_stdout_contains "a plan of 20 agents, seed 3, 300 steps"
expect_stdout_contains "1825 points (1825 on the GPU): bit-identical"
expect_stdout_contains "0 of 20 agents diverged"
expect_stdout_contains "living cpu 0 gpu 0"
expect_stdout_contains "death rules        PASS   1225 decisions of the GPU on its own state, 0"
if [[ $out == *llvmpipe* ]]; then expect_stdout_contains "bound: exact equality"; fi
expect_stdout_contains "overall: PASS"
expect_stderr_empty

# Another seed and a given bound; the progress counts the plan's steps.
run_murmur compare --scenario "$origin_plan" --steps 60 --seed 8 --max-divergent 0.1
expect_rc 0
expect_stdout_contains "seed 8, 60 steps"
expect_stdout_contains "bound: at most 0.1 of the agents (2)"
expect_stdout_contains "overall: PASS"
expect_stderr_contains "60/60 steps"

# What applies to one kind only: one line, exit 2, nothing on stdout.
for flag in "--lockstep 2" "--samples 3" "--envelope-runs 2" "--search naive"; do
  run_murmur compare --scenario "$origin_plan" --steps 5 $flag
  expect_usage_error "${flag%% *}" "applies to flock scenarios" "plan scenario"
done
printf 'id,species,x,y,vx,vy\n0,0,1,1,1,0\n' >"$work/state.csv"
run_murmur compare --scenario "$origin_plan" --in "$work/state.csv"
expect_usage_error "--in" "applies to flock scenarios"
flock=$work/flock.toml
write_tiny_scenario "$flock"
run_murmur compare --scenario "$flock" --steps 5 --max-divergent 0.1
expect_usage_error "--max-divergent" "plan scenarios"
run_murmur compare --scenario "$origin_plan" --max-divergent 1.5
expect_usage_error "--max-divergent" "[0, 1]"
run_murmur compare --scenario "$origin_plan" --steps 300000000
expect_usage_error "--steps"

finish
