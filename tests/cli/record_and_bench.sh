#!/usr/bin/env bash
# Smoke runs of the GL commands: `record` writes numbered frames and a manifest; `bench`
# prints the renderer and a Markdown table with '—' where a backend was skipped.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"

run_murmur record --scenario "$scenario" --frames 2 --steps-per-frame 3 --size 32x18 --seed 9 --quiet --out "$work/frames"
expect_rc 0
expect_stderr_contains "seed 9"
for file in frame_000000.png frame_000001.png manifest.toml; do
  [[ -f $work/frames/$file ]] || fail "record did not write $file"
done
expect_no_file "$work/frames/frame_000002.png" "record --frames 2"

run_murmur bench --sizes 64,128 --steps 1 --warmup 0 --max-naive 64
expect_rc 0
expect_stdout_contains "renderer: "
expect_stdout_contains "| N | grid ms/step | naive ms/step | cpu ms/step | naive/grid | cpu/grid |"
# The first table is the backends'; the second splits the grid step into its stages.
row_64=$(printf '%s\n' "$out" | grep -m1 '^| 64 |' || true)
row_128=$(printf '%s\n' "$out" | grep -m1 '^| 128 |' || true)
stage_rows=$(printf '%s\n' "$out" | grep -A3 '^| N | count | scan | scatter | rank | steer |' | grep -c '^| [0-9]' || true)
[[ -n $row_64 && -n $row_128 ]] || { fail "bench table lacks rows for 64 and 128"; describe_run; }
# 64 runs every backend; 128 is above --max-naive, so its naive column and ratio are skipped.
[[ $row_64 != *—* ]] || fail "bench row for 64 skipped a backend: $row_64"
[[ $(cut -d'|' -f4 <<<"$row_128") == " — " ]] || fail "bench ran naive above --max-naive: $row_128"
[[ $stage_rows == 2 ]] || { fail "bench stage table lacks a row per size"; describe_run; }

finish
