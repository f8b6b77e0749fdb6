#!/usr/bin/env bash
# A run whose estimated host memory does not fit under `ulimit -v` is refused before it
# allocates or writes anything: exit 4, one line with the estimate, the limit and the largest
# flock that fits (docs/reliability.md, "The memory estimate"). That flock is then not refused
# and runs; one boid more is refused. step, stats, soak, record and view (before it looks for a
# display) refuse the same way.
# The GPU's need is checked against what the driver reports free; llvmpipe reports nothing, so
# MURMUR_TEST_GPU_MEMORY_FREE_KIB reports in its place: step, record, compare and view (against
# its window's context, before the window is shown) refuse a flock whose GPU need is more, with
# the largest that fits, which then runs (step and view).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools memory_estimate xvfb-run

# 200,000 boids on the CPU reference need about 93 MiB by the estimate; 60 MB of address
# space leaves the process (about 14 MiB at the check) some 45 MiB.
address_space_kib=60000
asked=200000
scenario_of() {
  cat >"$work/flock_$1.toml" <<TOML
[world]
width = 4000.0
height = 4000.0
seed = 1

[[species]]
name = "many"
count = $1
perception_radius = 10.0
separation_radius = 2.0
TOML
}
limited() {
  set +e
  (ulimit -v $address_space_kib && "$murmur" "$@") >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout") err=$(cat "$work/stderr")
  last_command="murmur $* (ulimit -v $address_space_kib)"
}
# $1: the command, $2: the boids it was asked for (default $asked).
expect_one_line_refusal() {
  expect_rc 4
  expect_stderr_contains "murmur $1: not enough host memory for ${2:-$asked} boids: an estimated"
  expect_stderr_contains "may still be taken (RLIMIT_AS (ulimit -v)); at most"
  if [[ $(wc -l <"$work/stderr") != 1 ]]; then
    fail "$1: not one line on stderr"
    describe_run
  fi
}

scenario_of $asked
limited step --scenario "$work/flock_$asked.toml" --steps 1 --backend cpu --quiet \
  --out "$work/state.csv"
expect_one_line_refusal step
expect_no_file "$work/state.csv" "a run refused up front"
largest=$(sed -n 's/.*at most \([0-9]*\) boids fit.*/\1/p' <<<"$err")
if [[ -z $largest ]] || ((largest <= 0 || largest >= asked)); then
  fail "the largest flock that fits ('$largest') is not between 0 and $asked"
  describe_run
  finish
fi

# The largest flock that fits is not refused, and its step runs under the same limit.
scenario_of "$largest"
limited step --scenario "$work/flock_$largest.toml" --steps 1 --backend cpu --quiet \
  --out "$work/largest.csv"
[[ $err != *"not enough host memory"* ]] || { fail "$largest boids refused up front"; describe_run; }
expect_rc 0
if [[ -f $work/largest.csv ]] && (($(wc -l <"$work/largest.csv") != largest + 1)); then
  fail "the state of $largest boids has $(wc -l <"$work/largest.csv") lines"
fi
# One boid more is refused, with the same largest flock.
scenario_of $((largest + 1))
limited step --scenario "$work/flock_$((largest + 1)).toml" --steps 1 --backend cpu --quiet \
  --out "$work/over.csv"
expect_rc 4
expect_stderr_contains "at most $largest boids fit"
expect_no_file "$work/over.csv" "a run refused up front"

# The other commands that run a flock refuse before their outputs exist.
limited stats --scenario "$work/flock_$asked.toml" --steps 1 --backend cpu --quiet \
  --out "$work/stats.csv"
expect_one_line_refusal stats
expect_no_file "$work/stats.csv" "a run refused up front"
limited soak --scenario "$work/flock_$asked.toml" --steps 1 --backend cpu --quiet
expect_one_line_refusal soak
# record steps on the GPU: its host need is the start, a read-back and the frames, so it takes
# more boids to be refused.
scenario_of 2000000
limited record --scenario "$work/flock_2000000.toml" --frames 1 --size 64x64 --quiet \
  --out "$work/frames"
expect_one_line_refusal record 2000000
[[ ! -e $work/frames ]] || fail "record refused up front made $work/frames"
# view checks before it looks for a display: without one, the refusal is still what it says.
DISPLAY='' limited view --scenario "$work/flock_2000000.toml" --size 64x64 --frames 1 \
  --screenshot "$work/view.png" --quiet
expect_one_line_refusal view 2000000
expect_no_file "$work/view.png" "a view refused up front"

# --- the GPU's need, against a report planted in place of the driver's ---------------------------
# A smaller world than the host's flocks, whose trails alone would need more than 100 MiB.
gpu_scenario_of() {
  sed 's/^\(width\|height\) = .*/\1 = 1000.0/' "$work/flock_$asked.toml" |
    sed "s/^count = .*/count = $1/" >"$work/gpu_flock_$1.toml"
}
# What the planted report says is free: for a flock, and for a flock drawn (the renderer's
# targets and trails need some 30 MiB of their own here).
flock_free_kib=16384
drawn_free_kib=49152
gpu_report="MURMUR_TEST_GPU_MEMORY_FREE_KIB, standing in for the driver's report"
in_display=(xvfb-run -a -s "-screen 0 1280x720x24")
gpu_limited() {  # gpu_limited KIB COMMAND...: runs COMMAND (murmur, or murmur under xvfb-run)
  local free_kib=$1
  shift
  set +e
  MURMUR_TEST_GPU_MEMORY_FREE_KIB=$free_kib "$@" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout") err=$(cat "$work/stderr")
  last_command="$* (MURMUR_TEST_GPU_MEMORY_FREE_KIB=$free_kib)"
}
# $1: the command, $2: the boids it was asked for. Besides the seed, one line; no stdout.
expect_gpu_refusal() {
  expect_rc 4
  expect_stdout_empty
  expect_stderr_contains "murmur $1: not enough GPU memory for $2 boids: an estimated"
  expect_stderr_contains "may still be taken ($gpu_report); at most"
  if [[ $(grep -vc '^seed ' "$work/stderr") != 1 ]]; then
    fail "$1: not one line on stderr besides the seed"
    describe_run
  fi
}
largest_in_refusal() { sed -n 's/.*at most \([0-9]*\) boids fit.*/\1/p' <<<"$err"; }
expect_fewer_fit() {  # $1: what was refused, $2: the largest it names
  if [[ -z $2 ]] || (($2 <= 0 || $2 >= asked)); then
    fail "$1: the largest flock that fits the GPU ('$2') is not between 0 and $asked"
    describe_run
    finish
  fi
}

# The largest flock named runs; one boid more need not be refused here, as it is for the host:
# the scans' and the trails' parts are fixed at the N asked, and shrink with it.
gpu_scenario_of $asked
gpu_limited $flock_free_kib "$murmur" step --scenario "$work/gpu_flock_$asked.toml" --steps 1 --backend gpu --quiet \
  --out "$work/gpu.csv"
expect_gpu_refusal step $asked
expect_no_file "$work/gpu.csv" "a run refused up front"
gpu_largest=$(largest_in_refusal)
expect_fewer_fit "step on the GPU" "$gpu_largest"
gpu_scenario_of "$gpu_largest"
gpu_limited $flock_free_kib "$murmur" step --scenario "$work/gpu_flock_$gpu_largest.toml" --steps 1 --backend gpu \
  --quiet --out "$work/gpu_largest.csv"
expect_rc 0
[[ -f $work/gpu_largest.csv ]] || fail "the GPU's largest flock of $gpu_largest boids wrote no state"

gpu_limited $drawn_free_kib "$murmur" record --scenario "$work/gpu_flock_$asked.toml" --frames 1 --size 64x64 \
  --quiet --out "$work/gpu_frames"
expect_gpu_refusal record $asked
[[ ! -e $work/gpu_frames ]] || fail "record refused up front made $work/gpu_frames"
gpu_limited $flock_free_kib "$murmur" compare --scenario "$work/gpu_flock_$asked.toml" --steps 1 --lockstep 1 --quiet
expect_gpu_refusal compare $asked

# view asks its window's context, before the window is shown or anything drawn: no frame, no
# screenshot. Its need is the flock's and the renderer's at --size.
gpu_limited $drawn_free_kib "${in_display[@]}" "$murmur" view --scenario "$work/gpu_flock_$asked.toml" \
  --size 320x180 --frames 2 --screenshot "$work/gpu_view.png" --quiet
expect_gpu_refusal view $asked
expect_no_file "$work/gpu_view.png" "a view refused up front"
view_largest=$(largest_in_refusal)
expect_fewer_fit "view" "$view_largest"
gpu_scenario_of "$view_largest"
gpu_limited $drawn_free_kib "${in_display[@]}" "$murmur" view --scenario "$work/gpu_flock_$view_largest.toml" \
  --size 320x180 --frames 2 --screenshot "$work/gpu_view.png" --quiet
expect_rc 0
[[ -f $work/gpu_view.png ]] || fail "view of its largest flock ($view_largest boids) drew nothing"

# A planted report that is not a size is bad input, not a report of nothing.
gpu_scenario_of 1000
MURMUR_TEST_GPU_MEMORY_FREE_KIB=lots run_murmur step --scenario "$work/gpu_flock_1000.toml" --steps 1 \
  --backend gpu --quiet --out "$work/lots.csv"
expect_rc 2
expect_stderr_contains "MURMUR_TEST_GPU_MEMORY_FREE_KIB='lots' is not a size in KiB"

finish
