#!/usr/bin/env bash
# `murmur compare` through the command line: a passing comparison exits 0 with every check
# reported, for the grid and the all-pairs search, from a state file and with every model option
# of the origin presets; a GPU with a planted fault (MURMUR_TEST_GPU_FAULT, docs/harness.md,
# "Planting a fault from the command line") fails it with exit 1; bad flags exit 2.
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

# Every model option of the origin presets at once (docs/model.md): origin 000's red boids on a
# torus and blue ones in push walls, one flock, linear separation, velocity x1.02 and a target
# whose pull grows with distance.
options=$work/options.toml
cat >"$options" <<TOML
[world]
width = 200.0
height = 200.0
seed = 251

[target]
x = 150.0
y = 60.0

[[species]]
name = "red"
count = 151
topology = "wrap"
perception_radius = 25.0
separation_radius = 12.0
align_weight = 0.048
cohesion_weight = 0.018
separation_weight = 0.06
separation_kernel = "linear"
velocity_factor = 1.02
target_pull = "linear"
target_weight = 0.0003
max_force = 2.0
min_speed = 0.0
max_speed = 1.0
flocks_with = ["red", "blue"]

[[species]]
name = "blue"
count = 100
topology = "bounded"
walls = "push"
edge_margin = 8.0
edge_gain = 1.0
perception_radius = 25.0
separation_radius = 12.0
align_weight = 0.048
cohesion_weight = 0.018
separation_weight = 0.06
separation_kernel = "linear"
velocity_factor = 1.02
target_pull = "linear"
target_weight = 0.0003
max_force = 2.0
min_speed = 0.0
max_speed = 1.0
flocks_with = ["red", "blue"]
TOML
run_murmur compare --scenario "$options" --steps 100 --lockstep 5
expect_rc 0
expect_stdout_contains "overall: PASS"

# A GPU that skips the row of cells above each boid's: the checks fail, and so does the command.
for search in grid naive; do
  MURMUR_TEST_GPU_FAULT=DropNeighbourRow run_murmur compare --scenario "$scenario" --steps 30 \
    --lockstep 2 --search $search --quiet
  if [[ $search == grid ]]; then
    expect_rc 1
    expect_stdout_contains "neighbour sets     FAIL"
    expect_stdout_contains "overall: FAIL"
  else
    # The all-pairs pass has no cells to skip: the fault changes nothing there.
    expect_rc 0
    expect_stdout_contains "overall: PASS"
  fi
done
MURMUR_TEST_GPU_FAULT=NoSuchFault run_murmur compare --scenario "$scenario" --steps 1 --quiet
expect_rc 2
expect_stderr_contains "MURMUR_TEST_GPU_FAULT='NoSuchFault' is not a planted fault: use one of None, DropNeighbourRow,"

run_murmur compare --scenario "$scenario" --lockstep 20000
expect_rc 2
expect_stderr_contains "--lockstep"
run_murmur compare --scenario "$scenario" --search octree
expect_rc 2
expect_stderr_contains "--search"

finish
