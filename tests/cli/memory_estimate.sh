#!/usr/bin/env bash
# A run whose estimated host memory does not fit under `ulimit -v` is refused before it
# allocates or writes anything: exit 4, one line with the estimate, the limit and the largest
# flock that fits (docs/reliability.md, "The memory estimate"). That flock is then not refused
# and runs; one boid more is refused. step, stats, soak and record refuse the same way.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

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

finish
