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

finish
