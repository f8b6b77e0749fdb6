#!/usr/bin/env bash
# A 3D world from the command line (docs/model.md, "Three dimensions"): `murmur step` on the GPU
# and on the CPU writes z and vz columns, the two backends close after a few steps; `murmur
# stats` reads the 3D state; `murmur compare` holds the GPU to the CPU in 3D and fails with each
# planted 3D fault.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools three_d python3

scenario=$2/scenarios/flock-3d.toml
for backend in gpu cpu; do
  run_murmur step --scenario "$scenario" --backend $backend --steps 5 --out "$work/$backend.csv" --quiet
  expect_rc 0
  header=$(head -1 "$work/$backend.csv")
  [[ $header == id,species,x,y,z,vx,vy,vz,age,energy ]] || fail "$backend: the header is $header"
done
# Five steps apart by rounding alone: the same boids in the same places.
python3 - "$work/gpu.csv" "$work/cpu.csv" <<'PY' || fail "the GPU and the CPU differ after 5 steps"
import csv, sys
rows = [sorted(csv.DictReader(open(p)), key=lambda r: int(r["id"])) for p in sys.argv[1:]]
assert len(rows[0]) == len(rows[1]) == 2000
worst = max(abs(float(a[k]) - float(b[k])) for a, b in zip(*rows) for k in ("x", "y", "z", "vz"))
assert worst < 1e-3, worst
PY

run_murmur stats --scenario "$scenario" --in "$work/cpu.csv"
expect_rc 0
expect_stdout_contains "count         2000"

run_murmur record --scenario "$scenario" --frames 1 --out "$work/frames/"
expect_usage_error "world.dimensions = 3: the renderer draws 2D worlds only so far"
expect_no_file "$work/frames/frame_000000.png" "a refused recording's frame"

# The harness in 3D (docs/harness.md, "Three dimensions"): it passes the GPU, and a GPU whose
# grid skips the layer of cells above or does not look across the z seam fails it, exit 1.
run_murmur compare --scenario "$scenario" --steps 40 --lockstep 2 --quiet
expect_rc 0
for check in "neighbour sets" "lockstep" "free-run drift" "polarization" "mean NN distance"; do
  expect_stdout_contains "$check"
done
expect_stdout_contains "overall: PASS"
for fault in DropNeighbourLayer BrokenWrapZ; do
  MURMUR_TEST_GPU_FAULT=$fault run_murmur compare --scenario "$scenario" --steps 40 --lockstep 2 --quiet
  expect_rc 1
  expect_stdout_contains "neighbour sets     FAIL"
  expect_stdout_contains "overall: FAIL"
done
# Couzin's school in a volume: its 3D noise and bounded turn within their heading bounds, and a
# noise that turns every direction the same way about it fails lockstep.
run_murmur compare --scenario "$2/scenarios/couzin-torus-3d.toml" --steps 40 --lockstep 3 --quiet
expect_rc 0
expect_stdout_contains "overall: PASS"
MURMUR_TEST_GPU_FAULT=NoiseAxisFixed run_murmur compare --scenario "$2/scenarios/couzin-torus-3d.toml" \
  --steps 0 --lockstep 3 --quiet
expect_rc 1
expect_stdout_contains "lockstep           FAIL"
finish
