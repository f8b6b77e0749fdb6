#!/usr/bin/env bash
# Bit-identical GPU determinism through the command line: the same seed gives the same bytes
# on the same device, for the grid and the all-pairs search; the seed changes the result.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario" wrap 64
steps=20

for backend in gpu gpu-naive; do
  run_murmur step --scenario "$scenario" --backend $backend --steps $steps --seed 5 --out "$work/$backend-1.csv"
  expect_rc 0
  expect_stderr_contains "seed 5"
  run_murmur step --scenario "$scenario" --backend $backend --steps $steps --seed 5 --out "$work/$backend-2.csv"
  expect_rc 0
  expect_same_file "$work/$backend-1.csv" "$work/$backend-2.csv" "--backend $backend twice, same seed"
  run_murmur step --scenario "$scenario" --backend $backend --steps $steps --seed 6 --out "$work/$backend-3.csv"
  expect_rc 0
  expect_different_file "$work/$backend-1.csv" "$work/$backend-3.csv" "--backend $backend, seeds 5 and 6"
  # Upload and download through the GPU keep every bit.
  run_murmur step --scenario "$scenario" --backend $backend --in "$work/$backend-1.csv" --steps 0 --out "$work/$backend-0.csv"
  expect_rc 0
  expect_same_file "$work/$backend-1.csv" "$work/$backend-0.csv" "--backend $backend round trip with 0 steps"
done

# The default backend is the GPU grid.
run_murmur step --scenario "$scenario" --steps $steps --seed 5 --out "$work/default.csv"
expect_rc 0
expect_same_file "$work/gpu-1.csv" "$work/default.csv" "default backend vs --backend gpu"

finish
