#!/usr/bin/env bash
# Progress on stderr (docs/commands.md, "Progress"): off a terminal, each long command ends with one plain
# final line; --quiet leaves stderr free of progress and stdout byte for byte the same; on a
# terminal (a pseudo-terminal from script(1)) the line is redrawn with '\r' and ended with a
# newline, also when an error stops the run. `murmur record --skip` shows the skipped steps on
# that line before its frames, and its final line's time is the whole run's.
# tests/core/test_progress.cpp checks the numbers, the redraw and the 5 s throttle on a clock of
# its own.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools progress script

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"

# `$1` (command name) printed its final progress line, "murmur NAME: N/N UNIT (100%) in ...",
# as the last line of stderr, with no '\r' (stderr is a file here).
expect_final_line() {
  local last_line
  last_line=$(printf '%s\n' "$err" | tail -n 1)
  if [[ ! $last_line =~ ^"murmur $1: "([0-9]+)/([0-9]+)" $2 (100%) in "[0-9.]+" s" ]] ||
    [[ ${BASH_REMATCH[1]} != "${BASH_REMATCH[2]}" ]]; then
    fail "$1: the last stderr line is not a final progress line in $2"
    describe_run
  fi
  if [[ $err == *$'\r'* ]]; then
    fail "$1: a carriage return in stderr that is not a terminal"
    describe_run
  fi
}

# No progress line at all: nothing on stderr names the command's progress.
expect_no_progress() {
  if [[ $err == *"murmur $1: "* || $err == *"(100%)"* ]]; then
    fail "$1 --quiet printed progress"
    describe_run
  fi
}

# Each command with and without --quiet: the final line, no progress when quiet, and the same
# stdout both ways (progress never touches stdout).
check_command() {
  local name=$1 unit=$2
  shift 2
  run_murmur "$name" "$@"
  expect_rc 0
  expect_final_line "$name" "$unit"
  local loud_out=$out
  run_murmur "$name" "$@" --quiet
  expect_rc 0
  expect_no_progress "$name"
  if [[ $name != bench && $out != "$loud_out" ]]; then  # bench's stdout holds timings
    fail "$name: stdout differs with --quiet"
    describe_run
  fi
}

check_command step steps --scenario "$scenario" --steps 30 --out "$work/step.csv"
cp "$work/step.csv" "$work/step-loud.csv"
# Quiet leaves the seed (stderr's only other line) and the state file as they were.
run_murmur step --scenario "$scenario" --steps 30 --out "$work/step.csv" --quiet
[[ $err == "seed 42" ]] || { fail "step --quiet: stderr is not just the seed"; describe_run; }
expect_same_file "$work/step-loud.csv" "$work/step.csv" "step with and without --quiet"
check_command stats steps --scenario "$scenario" --steps 30 --every 10
check_command soak steps --scenario "$scenario" --steps 30 --check-every 10
check_command compare steps --scenario "$scenario" --steps 20 --lockstep 2 --samples 2
check_command bench "work units" --sizes 64 --steps 1 --warmup 0 --backends grid,naive,cpu
check_command bench boid-steps --ecosystem --sizes 64 --steps 1 --warmup 0
check_command record frames --scenario "$scenario" --frames 3 --size 32x18 --out "$work/frames"
# Zero steps is a complete run too: 0/0 is 100%.
run_murmur step --scenario "$scenario" --steps 0 --out "$work/none.csv"
expect_rc 0
expect_final_line step steps
expect_stderr_contains "murmur step: 0/0 steps (100%)"

# Errors still print with --quiet.
run_murmur step --scenario "$scenario" --steps 5 --out "$work/missing/after.csv" --quiet
expect_rc 3
expect_stderr_contains "$work/missing/after.csv"

# On a terminal: the line is redrawn in place and ended with a newline. script(1) runs the
# command on a pseudo-terminal (stdout and stderr both), which writes each '\n' as "\r\n".
run_on_terminal() {
  set +e
  script -qec "$(printf '%q ' "$@")" /dev/null >"$work/terminal" 2>&1
  rc=$?
  set -e
  out=$(cat "$work/terminal" && echo .)  # the dot keeps the trailing newline
  out=${out%.}
  err=$out
  last_command="script: $*"
}
run_on_terminal env "$murmur" stats --scenario "$scenario" --steps 400 --out "$work/stats.csv"
expect_rc 0
expect_stdout_contains $'\r'"murmur stats: "
# What follows the last redraw is the final line (blanks may cover a longer line before it).
after_last_redraw=${out##*$'\r'"murmur stats: "}
final_line_pattern="^400/400 steps \(100%\) in [0-9.]+ s, [0-9.]+ steps/s *"$'\r\n''$'
if [[ ! $after_last_redraw =~ $final_line_pattern ]]; then
  fail "stats on a terminal: the output does not end with the final line and a newline"
  describe_run
fi
# An error ends the line first, so that its message starts on a line of its own.
run_on_terminal env MURMUR_TEST_GL_ERROR_AT_STEP=300 "$murmur" step --scenario "$scenario" \
  --steps 400 --out "$work/failed.csv"
expect_rc 4
if [[ $out != *"murmur step: "*$'\r\n'"murmur step: during the steps: GL error"* ]]; then
  fail "step on a terminal: the error message does not start on a line of its own"
  describe_run
fi
expect_no_file "$work/failed.csv" "step stopped by a GL error"

# The skipped steps of `murmur record --skip` are a phase of the line, drawn at their first step
# (a terminal draws its first update at once), before the frames.
run_on_terminal "$murmur" record --scenario "$scenario" --skip 300 --frames 1 --size 32x18 \
  --out "$work/skipped"
expect_rc 0
if [[ $out != *$'\r'"murmur record: skipping 1/300 steps (0%)"*$'\r'"murmur record: 1/1 frames"* ]]; then
  fail "record --skip on a terminal: no progress line during the skipped steps"
  describe_run
fi

# Seconds of a progress line's duration: "0.4 s", "12 s" or "3 min 07 s".
seconds_of() {
  if [[ $1 =~ ^([0-9]+)" min "([0-9]+)" s"$ ]]; then
    echo "$((10#${BASH_REMATCH[1]} * 60 + 10#${BASH_REMATCH[2]}))"
  else
    echo "${1% s}"
  fi
}
# Off a terminal the final line gives the whole run's time, then the skip's and the frames'
# shares of it: the whole is no less than the skip, nor than the skip and the frames together
# (each printed to a tenth of a second, rounded: at most 0.15 s lost between the three).
run_murmur record --scenario "$scenario" --skip 300 --frames 2 --size 32x18 --out "$work/skipped"
expect_rc 0
expect_final_line record frames
duration='([0-9.]+ s|[0-9]+ min [0-9]+ s)'
final_pattern="^murmur record: 2/2 frames \(100%\) in $duration \(skipping $duration, frames $duration\), "
if [[ $(printf '%s\n' "$err" | tail -n 1) =~ $final_pattern ]]; then
  whole=$(seconds_of "${BASH_REMATCH[1]}")
  skip=$(seconds_of "${BASH_REMATCH[2]}")
  frames=$(seconds_of "${BASH_REMATCH[3]}")
  if ! awk -v w="$whole" -v s="$skip" -v f="$frames" 'BEGIN { exit !(w >= s && w >= s + f - 0.15) }'; then
    fail "record --skip: the final line's time ($whole s) is not the whole run's (skip $skip s, frames $frames s)"
    describe_run
  fi
else
  fail "record --skip: the final line does not split the run's time into the skip and the frames"
  describe_run
fi

finish
