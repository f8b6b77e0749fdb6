#!/usr/bin/env bash
# Sparse ids through `murmur step`: a state file whose ids are scattered over [0, 2^32), 0 and
# 4294967295 among them, steps on every backend exactly as the same state numbered 0..N-1; it
# round-trips byte for byte; a duplicate id is one line naming the file, the line and the id.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
count=48
write_tiny_scenario "$scenario" wrap $count
steps=12
largest_id=4294967295

# Renames id k (0..count-1) to round(k * largest_id / (count - 1)): from 0 to largest_id, in the
# same order, so the file's rows stay sorted by id. Only the first column changes.
rename_ids() {
  awk -F, -v OFS=, -v last=$((count - 1)) -v largest=$largest_id '
    NR == 1 { print; next }
    { $1 = sprintf("%.0f", $1 * largest / last); print }' "$1" >"$2"
}

run_murmur step --scenario "$scenario" --backend cpu --steps 0 --seed 7 --out "$work/dense.csv"
expect_rc 0
rename_ids "$work/dense.csv" "$work/sparse.csv"
[[ $(sed -n 2p "$work/sparse.csv") == 0,* ]] || fail "the first renamed id is not 0"
[[ $(tail -1 "$work/sparse.csv") == $largest_id,* ]] || fail "the last renamed id is not $largest_id"

# Read and written back unchanged.
run_murmur step --scenario "$scenario" --backend cpu --in "$work/sparse.csv" --steps 0 --out "$work/sparse0.csv"
expect_rc 0
expect_same_file "$work/sparse.csv" "$work/sparse0.csv" "sparse ids round trip with 0 steps"

for backend in cpu gpu gpu-naive; do
  run_murmur step --scenario "$scenario" --backend $backend --in "$work/dense.csv" --steps $steps --out "$work/$backend-dense.csv"
  expect_rc 0
  run_murmur step --scenario "$scenario" --backend $backend --in "$work/sparse.csv" --steps $steps --out "$work/$backend-sparse.csv"
  expect_rc 0
  rename_ids "$work/$backend-dense.csv" "$work/$backend-dense-renamed.csv"
  expect_same_file "$work/$backend-dense-renamed.csv" "$work/$backend-sparse.csv" \
    "--backend $backend: sparse ids vs dense ids renamed"
  expect_different_file "$work/sparse.csv" "$work/$backend-sparse.csv" "--backend $backend: $steps steps vs none"
done

# A duplicate id: the third boid takes the second's id.
awk -F, -v OFS=, 'NR == 4 { $1 = prev } { prev = $1; print }' "$work/sparse.csv" >"$work/duplicate.csv"
duplicate=$(sed -n 3p "$work/sparse.csv" | cut -d, -f1)
run_murmur step --scenario "$scenario" --backend cpu --in "$work/duplicate.csv" --steps 1 --out "$work/x.csv"
expect_usage_error "$work/duplicate.csv:4:1: id = $duplicate: duplicate, first seen on line 3"
expect_no_file "$work/x.csv" "a rejected state writes no output"

finish
