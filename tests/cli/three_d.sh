#!/usr/bin/env bash
# A 3D world from the command line (docs/model.md, "Three dimensions"): `murmur step` on the GPU
# and on the CPU writes z and vz columns, the two backends close after a few steps; `murmur
# stats` reads the 3D state; what is still the plane's (record, compare)
# refuses in one line, exit 2, leaving no frame behind.
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

run_murmur compare --scenario "$scenario" --quiet
expect_rc 2
expect_stderr_contains "world.dimensions = 3"
finish
