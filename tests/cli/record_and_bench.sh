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

run_murmur bench --sizes 64,128 --steps 3 --warmup 0 --max-naive 64 --gpu-timers
expect_rc 0
expect_stdout_contains "renderer: "
expect_stdout_contains "| N | grid ms/step | grid ns/boid-step | candidates/boid | expected | neighbours/boid | naive ms/step | naive ns/boid-step | cpu ms/step | cpu ns/boid-step | naive/grid | cpu/grid | grid fastest ms/step |"
# The first table is the backends'; the second splits the grid step into its stages, and
# --gpu-timers adds a third from GL timestamp queries (or says that they read 0).
row_64=$(printf '%s\n' "$out" | grep -m1 '^| 64 |' || true)
row_128=$(printf '%s\n' "$out" | grep -m1 '^| 128 |' || true)
stage_header='^| N | count | scan | scatter | rank | steer | step | step ns/boid |'
stage_rows=$(printf '%s\n' "$out" | grep -m1 -A3 "$stage_header" | grep -c '^| [0-9]' || true)
[[ -n $row_64 && -n $row_128 ]] || { fail "bench table lacks rows for 64 and 128"; describe_run; }
# 64 runs every backend; 128 is above --max-naive, so its naive columns and ratio are skipped.
[[ $row_64 != *—* ]] || fail "bench row for 64 skipped a backend: $row_64"
[[ $(cut -d'|' -f8,9 <<<"$row_128") == " — | — " ]] || fail "bench ran naive above --max-naive: $row_128"
[[ $stage_rows == 2 ]] || { fail "bench stage table lacks a row per size"; describe_run; }
# 64 boids fill fewer than 3 cells a side, so the search visits every other boid: 63 candidates.
[[ $(cut -d'|' -f5 <<<"$row_64") == " 63.0 " ]] || fail "bench candidates at 64 boids: $row_64"
# The estimate beside it knows that too (docs/gpu.md, "Density").
[[ $(cut -d'|' -f6 <<<"$row_64") == " 63.0 " ]] || fail "bench expected candidates at 64 boids: $row_64"
# ns per boid-step is the ms per step over N: 1e6 * ms / 64.
awk -F'|' '{ ms = $3 + 0; ns = $4 + 0; if (ms <= 0 || ns < 0.9 * ms * 1e6 / 64 || ns > 1.1 * ms * 1e6 / 64) exit 1 }' <<<"$row_64" ||
  fail "bench ns/boid-step at 64 boids does not match its ms/step: $row_64"
# The fastest timed step is one of the steps the median is taken over: never slower.
for row in "$row_64" "$row_128"; do
  awk -F'|' '{ median = $3 + 0; fastest = $14 + 0; if (fastest <= 0 || fastest > median) exit 1 }' <<<"$row" ||
    fail "bench's fastest grid step is not at most its median: $row"
done
if ! printf '%s\n' "$out" | grep -q 'GL timer queries: every stage read 0'; then
  gpu_rows=$(printf '%s\n' "$out" | grep -A5 'GL timestamp queries' | grep -c '^| [0-9]' || true)
  [[ $gpu_rows == 2 ]] || { fail "bench --gpu-timers printed neither its table nor the 0 line"; describe_run; }
fi

# --volume: the built-in flock in a 3D world. 64 boids fill fewer than 3 cells on every axis
# there too, so its 3 x 3 x 3 search visits every other boid.
run_murmur bench --volume --sizes 64 --steps 2 --warmup 0 --backends grid,cpu --quiet
expect_rc 0
expect_stdout_contains "scenario: built-in uniform scenario in 3D, density kept constant (world volume scales with N)"
row_3d=$(printf '%s\n' "$out" | grep -m1 '^| 64 |' || true)
[[ $(cut -d'|' -f5,6 <<<"$row_3d") == " 63.0 | 63.0 " ]] || fail "bench --volume candidates at 64 boids: $row_3d"
# Neighbours per boid: the built-in flock's density is N / A with A = N pi r^2 / 20 (area) or
# N 4/3 pi r^3 / 20 (volume), so a boid of a uniform flock has (N - 1) / A times the disc's area
# (the ball's volume) of others within r: 20 (N - 1) / N, 19.98 at 1024 boids. The mean over
# 1024 boids is twice the pairs over N, whose spread is 2 sqrt(10 / 1024) = 0.2: within 1.
for flag in "" --volume; do
  run_murmur bench $flag --sizes 1024 --steps 1 --warmup 0 --backends grid --quiet
  expect_rc 0
  row=$(printf '%s\n' "$out" | grep -m1 '^| 1024 |' || true)
  awk -F'|' '{ seen = $7 + 0; design = 20 * 1023 / 1024; if (seen < design - 1 || seen > design + 1) exit 1 }' <<<"$row" ||
    fail "bench $flag neighbours per boid at 1024 boids is not near 20: $row"
done
run_murmur bench --volume --scenario "$2/scenarios/flock-3d.toml"
expect_usage_error "--scenario and --volume exclude each other"

finish
