#!/usr/bin/env bash
# `murmur step` on the CPU reference: reproducible from a seed, the seed changes the result
# and is printed, state files round-trip exactly, and a run can be resumed from its output.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
steps=12

run_murmur step --scenario "$scenario" --backend cpu --steps $steps --seed 7 --out "$work/a.csv"
expect_rc 0
expect_stderr_contains "seed 7"
run_murmur step --scenario "$scenario" --backend cpu --steps $steps --seed 7 --out "$work/b.csv"
expect_rc 0
expect_same_file "$work/a.csv" "$work/b.csv" "same seed, same steps"
run_murmur step --scenario "$scenario" --backend cpu --steps $steps --seed 8 --out "$work/c.csv"
expect_rc 0
expect_stderr_contains "seed 8"
expect_different_file "$work/a.csv" "$work/c.csv" "--seed 7 vs --seed 8"

# Without --seed the scenario's [world] seed (42) is used and printed.
run_murmur step --scenario "$scenario" --backend cpu --steps $steps --out "$work/default.csv"
expect_rc 0
expect_stderr_contains "seed 42"
run_murmur step --scenario "$scenario" --backend cpu --steps $steps --seed 42 --out "$work/42.csv"
expect_same_file "$work/default.csv" "$work/42.csv" "scenario seed vs --seed 42"

# The output is a state file of the documented shape: header plus one row per boid.
header=$(head -1 "$work/a.csv")
[[ $header == "id,species,x,y,vx,vy,age,energy" ]] || fail "state header is '$header'"
rows=$(($(wc -l <"$work/a.csv") - 1))
[[ $rows -eq 48 ]] || fail "state has $rows rows, expected 48"

# Stepping changes the state (a no-op step would pass every check above).
run_murmur step --scenario "$scenario" --backend cpu --steps 0 --seed 7 --out "$work/start.csv"
expect_rc 0
expect_different_file "$work/start.csv" "$work/a.csv" "0 steps vs $steps steps"

# Round trip: 0 steps from a state file writes the same bytes back.
run_murmur step --scenario "$scenario" --backend cpu --in "$work/a.csv" --steps 0 --out "$work/a_again.csv"
expect_rc 0
expect_same_file "$work/a.csv" "$work/a_again.csv" "--in round trip with 0 steps"

# Resuming: 5 steps, then 7 more from the file, equals 12 steps in one go (the file keeps
# every float bit, so nothing is lost at the seam).
run_murmur step --scenario "$scenario" --backend cpu --steps 5 --seed 7 --out "$work/five.csv"
expect_rc 0
run_murmur step --scenario "$scenario" --backend cpu --in "$work/five.csv" --steps 7 --out "$work/resumed.csv"
expect_rc 0
expect_same_file "$work/a.csv" "$work/resumed.csv" "5 + 7 steps vs $steps steps"

# --seed with --in would be silently ignored: it is refused instead.
run_murmur step --scenario "$scenario" --backend cpu --in "$work/a.csv" --seed 3 --steps 1 --out "$work/x.csv"
expect_usage_error "--in and --seed exclude each other"

# .npy output: NumPy's magic string, and a different file from the CSV.
run_murmur step --scenario "$scenario" --backend cpu --steps 1 --out "$work/after.npy"
expect_rc 0
if [[ ! -f $work/after.npy ]] || [[ $(head -c 6 "$work/after.npy" | tail -c 5) != NUMPY ]]; then
  fail ".npy output lacks the NUMPY magic"
fi

finish
