#!/usr/bin/env bash
# A 3D world from the command line (docs/model.md, "Three dimensions"): `murmur step` on the GPU
# and on the CPU writes z and vz columns, the two backends close after a few steps; `murmur
# stats` reads the 3D state; `murmur record` draws it in perspective and `--orbit` turns its
# camera (refused in one line, exit 2, no frame, for a bad angle or a 2D world); `murmur
# compare` holds the GPU to the CPU in 3D and fails with each planted 3D fault.
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

run_murmur record --scenario "$scenario" --frames 2 --size 96x64 --orbit 90 --quiet --out "$work/frames/"
expect_rc 0
[[ $(python3 "$source_dir/tests/cli/png_tool.py" colours "$work/frames/frame_000000.png") == several ]] ||
  fail "the 3D frame is one colour (no bird drawn)"
# A quarter turn shows the flock from its side: another picture.
expect_different_file "$work/frames/frame_000000.png" "$work/frames/frame_000001.png" "--orbit 90"

for angle in 361 -400 nan inf x; do
  run_murmur record --scenario "$scenario" --frames 1 --orbit "$angle" --out "$work/bad-$angle/"
  expect_usage_error "--orbit must be a number in [-360, 360]"
  expect_no_file "$work/bad-$angle/frame_000000.png" "--orbit $angle's frame"
done
run_murmur record --scenario "$2/scenarios/starlings.toml" --frames 1 --orbit 5 --out "$work/flat/"
expect_usage_error "--orbit: turns a 3D world's camera" "a 2D flock"
expect_no_file "$work/flat/frame_000000.png" "--orbit on a 2D world's frame"
run_murmur record --scenario "$2/scenarios/floor-plan.toml" --frames 1 --orbit 5 --out "$work/plan/"
expect_usage_error "--orbit: turns a 3D world's camera" "a floor plan"
expect_no_file "$work/plan/frame_000000.png" "--orbit on a plan's frame"

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
