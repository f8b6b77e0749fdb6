#!/usr/bin/env bash
# `murmur sweep --carry-state`: each run of a seed starts from the flock the run before it ended
# with, so two runs of the same values carried are one run of twice the steps (held to murmur
# stats of that run); seeds stay apart and the same bytes come with two jobs; a flock that
# does not fit the next run's world fails that run, named with its values and seed, the runs
# it would carry to are not made, the others are, and no CSV is written.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools sweep_carry python3

scenario=$work/carry.toml
write_tiny_scenario "$scenario" wrap 48
steps=20 every=5
check() { python3 "$source_dir/tests/cli/sweep_check.py" "$@"; }

# Two runs of one value carried: the second's window is steps 20 to 40 of one 40-step run. A
# flock without births or deaths, so that the first sample's events (none) are the stats'.
run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight=0.05,0.05 \
  --carry-state --seeds 1 --steps $steps --every $every --measure-from 0 --backend cpu \
  --out "$work/carried.csv" --quiet
expect_rc 0
for length in $steps $((2 * steps)); do
  run_murmur stats --scenario "$scenario" --steps $length --every $every --backend cpu \
    --out "$work/stats$length.csv" --quiet
  expect_rc 0
done
check "$work/carried.csv" 0 "$work/stats$steps.csv" 0 species.tiny.align_weight ||
  fail "the first carried run is not steps 0 to $steps"
check "$work/carried.csv" 1 "$work/stats$((2 * steps)).csv" $steps species.tiny.align_weight ||
  fail "the second carried run is not steps $steps to $((2 * steps)) of one run"

# Hysteresis: up and down, two seeds, one job or two at a time; the way back differs from the
# way up, which started from the seeded start.
for jobs in 1 2; do
  run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight=0,0.1,0 \
    --carry-state --seeds 2 --steps $steps --every $every --measure-from 10 --backend cpu \
    --jobs $jobs --out "$work/loop$jobs.csv" --quiet
  expect_rc 0
done
expect_same_file "$work/loop1.csv" "$work/loop2.csv" "--carry-state with --jobs 1 and --jobs 2"
up=$(sed -n 2p "$work/loop1.csv" | cut -d, -f3) back=$(sed -n 6p "$work/loop1.csv" | cut -d, -f3)
[[ $up != "$back" ]] || fail "the way back has the first run's polarization: nothing was carried"

# The GPU carries too.
run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight=0,0.1 --carry-state \
  --seeds 1 --steps $steps --every $every --measure-from 10 --backend gpu --out "$work/gpu.csv" \
  --quiet
expect_rc 0
[[ $(wc -l <"$work/gpu.csv") == 3 ]] || fail "the GPU's carried sweep has not 2 rows"

# A narrower world than the flock's: the runs at width 20 fail, naming their values and seed,
# the runs after them are not made, the first two are kept in the journal, and no CSV.
run_murmur sweep --scenario "$scenario" --vary world.width=60,20,60 --carry-state --seeds 2 \
  --steps $steps --every $every --measure-from 0 --backend cpu --out "$work/narrow.csv" --quiet
expect_rc 2
expect_stdout_empty
for seed in 42 43; do
  expect_stderr_contains "(world.width=20, seed $seed) failed: --carry-state: the flock run"
  expect_stderr_contains "(world.width=60, seed $seed) not made: it carries the flock of run"
done
expect_stderr_contains "outside the world: must be >= 0 and < 20"
expect_stderr_contains "murmur sweep: 4 of 6 runs failed; the 2 finished are kept in $work/narrow.csv.partial"
expect_no_file "$work/narrow.csv" "a sweep with failed runs"
[[ $(grep -c '^[01],60,4[23],' "$work/narrow.csv.partial") == 2 ]] ||
  fail "the journal lacks the two runs that finished"

finish
