#!/usr/bin/env bash
# `murmur compare` through the command line: a passing comparison exits 0 with every check
# reported, for the grid and the all-pairs search and from a state file; bad flags exit 2.
# (That a failing comparison exits non-zero is shown by tests/gpu/test_gpu_flock.cpp, which
# plants faults through a test-only switch the command line does not expose.)
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario" wrap 200

for search in grid naive; do
  run_murmur compare --scenario "$scenario" --steps 30 --lockstep 2 --search $search
  expect_rc 0
  for check in "neighbour sets" "lockstep" "free-run drift" "polarization" "mean NN distance"; do
    expect_stdout_contains "$check"
  done
  expect_stdout_contains "$search search"
  expect_stdout_contains "overall: PASS"
done

run_murmur step --scenario "$scenario" --backend cpu --steps 10 --out "$work/start.csv"
expect_rc 0
run_murmur compare --scenario "$scenario" --in "$work/start.csv" --steps 0 --lockstep 3
expect_rc 0
expect_stdout_contains "overall: PASS"
if [[ $out == *"free-run drift"* ]]; then
  fail "--steps 0 should skip the free run"
  describe_run
fi

run_murmur compare --scenario "$scenario" --lockstep 20000
expect_rc 2
expect_stderr_contains "--lockstep"
run_murmur compare --scenario "$scenario" --search octree
expect_rc 2
expect_stderr_contains "--search"

finish
