#!/usr/bin/env bash
# `murmur soak`: 20,000 steps of scenarios/soak.toml (a wrapping flock, a walled flock at
# constant speed, a swarm that dies of age) keep every invariant, checked every 1,000 steps;
# a GPU whose speed limit is loose (the planted fault LooseSpeedLimit, MURMUR_TEST_GPU_FAULT)
# breaks one: exit 1 and one line naming the step, the boid and the invariant; bad flags are
# usage errors. tests/core/test_invariants.cpp breaks each invariant by hand.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$source_dir/scenarios/soak.toml
run_murmur soak --scenario "$scenario" --steps 20000 --check-every 1000
expect_rc 0
# Checks at step 0, every 1,000 steps and at the end: 21.
expect_stdout_contains "passed: 20000 steps, 21 checks"
# The mayflies (max_age 5000) are all dead by then; the 160 immortal boids remain.
expect_stdout_contains "160 boids alive at the end"

# A last partial interval is checked too: 2,500 steps every 1,000 is steps 0, 1000, 2000, 2500.
run_murmur soak --scenario "$scenario" --steps 2500 --check-every 1000 --backend cpu
expect_rc 0
expect_stdout_contains "passed: 2500 steps, 4 checks"

# The walled species flies at constant speed, so every boid of it meets the loose limit at once.
MURMUR_TEST_GPU_FAULT=LooseSpeedLimit run_murmur soak --scenario "$scenario" --steps 100 \
  --check-every 10 --quiet
expect_rc 1
expect_stdout_contains "murmur soak: $scenario, 200 boids"
if [[ $out == *"passed"* ]]; then fail "a broken invariant reported as passed"; fi
[[ $(grep -c "" <<<"$err") == 2 ]] || { fail "not one line of error (after the seed)"; describe_run; }
expect_stderr_contains "murmur soak: invariant broken at step 10: boid "
expect_stderr_contains "(species 1, "
expect_stderr_contains "outside [min_speed, max_speed] = [2, 2] (relative slack"
# The fault is the GPU's: the CPU reference holds the same run to every invariant.
MURMUR_TEST_GPU_FAULT=LooseSpeedLimit run_murmur soak --scenario "$scenario" --steps 100 \
  --check-every 10 --backend cpu --quiet
expect_rc 0
expect_stdout_contains "passed: 100 steps, 11 checks"

run_murmur soak --scenario "$scenario" --steps 10 --check-every 0
expect_usage_error "--check-every" "[1, 4294967295]"
run_murmur soak --scenario "$scenario" --steps -1
expect_usage_error "--steps" "[0, 4294967295]"
run_murmur soak --steps 10
expect_usage_error "--scenario"

finish
