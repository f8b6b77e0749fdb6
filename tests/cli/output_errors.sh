#!/usr/bin/env bash
# An output path that cannot be written exits 3 naming the path, before the run starts.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
missing_dir=$work/no/such/dir
touch "$work/plain_file"

run_murmur step --scenario "$scenario" --backend cpu --steps 1 --out "$missing_dir/after.csv"
expect_rc 3
expect_stderr_contains "$missing_dir/after.csv"
expect_stderr_contains "--out"

# A regular file where a directory should be (root ignores permission bits, this cannot).
run_murmur step --scenario "$scenario" --backend cpu --steps 1 --out "$work/plain_file/after.npy"
expect_rc 3
expect_stderr_contains "$work/plain_file/after.npy"

run_murmur stats --scenario "$scenario" --backend cpu --steps 2 --out "$missing_dir/stats.csv"
expect_rc 3
expect_stderr_contains "$missing_dir/stats.csv"
expect_stdout_empty

run_murmur record --scenario "$scenario" --frames 1 --size 16x16 --quiet --out "$work/plain_file/frames"
expect_rc 3
expect_stderr_contains "$work/plain_file"

# A folder where nothing can be made although access() says yes (to root): /proc. Each command
# fails at once, before its first step: no seed line, no progress, exit 3.
for command in "step --steps 100000 --out /proc/murmur.csv" \
               "stats --steps 100000 --out /proc/murmur.csv" \
               "sweep --vary species.tiny.align_weight=0,1 --seeds 1 --steps 100000 --every 1 --measure-from 0 --out /proc/murmur.csv"; do
  # shellcheck disable=SC2086  # the words of each command
  run_murmur $command --scenario "$scenario"
  expect_rc 3
  expect_stderr_contains "cannot write --out /proc/murmur.csv: cannot create a file in /proc"
  if [[ $err == *"seed "* || $err == *"steps/s"* || $err == *" runs"* ]]; then
    fail "murmur ${command%% *} ran before refusing /proc"
    describe_run
  fi
done
run_murmur plan --scenario "$2/scenarios/floor-plan.toml" --steps 100000 --out /proc/plan.svg
expect_rc 3
expect_stderr_contains "cannot create a file in /proc"

finish
