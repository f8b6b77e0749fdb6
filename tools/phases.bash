# Sourced by tools/setup, tools/test and tools/run: each long phase of theirs (installing
# packages, configuring, building, a test suite) is one line on stderr, "tools/setup: building
# build/: 25 s", and its output goes to a log under build/logs/. On a terminal the line shows
# the phase's percentage as make or ctest reports it. When a phase fails, its line says so and
# names the log, and the log's end follows (the compiler's errors, a failed test's output), so
# CI shows them too. MURMUR_VERBOSE=1 shows every phase's own output as it comes instead.
#
#   source tools/phases.bash
#   run_phase build "building build/" cmake --build build -j2

phase_prefix=${phase_prefix:-tools/$(basename "$0")}
phase_logs=build/logs
# Enough of a failed log's end for a compiler's error with its notes, or a failed test's output
# (a third of it after the errors found in the log).
phase_failure_lines=${MURMUR_LOG_TAIL:-60}

phase_verbose() { [[ ${MURMUR_VERBOSE:-0} != 0 ]]; }

# Reads a phase's output from stdin, appends it to the log $1 and, on a terminal, redraws the
# phase's line "$2" with the last percentage seen: make's "[ 45%]" or ctest's "12/448 Test".
phase_output() {
  local log=$1 line=$2 text percent shown=
  # A last line without its newline is a line too.
  while IFS= read -r text || [[ -n $text ]]; do
    printf '%s\n' "$text" >>"$log"
    [[ -t 2 ]] || continue
    percent=
    if [[ $text =~ ^\[\ *([0-9]+)%\] ]]; then
      percent=${BASH_REMATCH[1]}
    elif [[ $text =~ ^\ *([0-9]+)/([0-9]+)\ Test ]]; then
      percent=$((BASH_REMATCH[1] * 100 / BASH_REMATCH[2]))
    fi
    if [[ -n $percent && $percent != "$shown" ]]; then
      printf '\r%s %s%%' "$line" "$percent" >&2
      shown=$percent
    fi
  done
}

# Lines of a failed log worth showing before its end (at most 200): compiler and linker errors
# with the 4 lines after each (the source line and its caret, the notes), CMake's and apt's,
# and each failed test's status line with the output ctest printed after it
# (--output-on-failure), up to the next test's line.
phase_errors() {
  awk '
    /^ *[0-9]+\/[0-9]+ Test +#/ { failed = ($0 ~ /\*\*\*(Failed|Exception|Timeout)/) }
    /^ *Start +[0-9]+:|tests passed, / { failed = 0 }
    /: (fatal )?error:|undefined reference|CMake Error|^E: / { context = 5 }
    failed || context-- > 0 {
      print
      if (++shown == 200) exit
    }' "$1"
}

# run_phase [--summary PATTERN] NAME WHAT COMMAND...: runs COMMAND as the phase WHAT, its
# output in build/logs/NAME.log (rewritten each run). Returns COMMAND's status. With --summary,
# the phase's line ends with the log's last line matching the extended regex PATTERN (ctest's
# "100% tests passed, 0 tests failed out of 448").
run_phase() {
  local summary_pattern=
  if [[ $1 == --summary ]]; then
    summary_pattern=$2
    shift 2
  fi
  local name=$1 what=$2
  shift 2
  if phase_verbose; then
    echo "$phase_prefix: $what" >&2
    "$@"
    return
  fi
  mkdir -p "$phase_logs"
  local log=$phase_logs/$name.log line="$phase_prefix: $what ..." start=$SECONDS status=0
  : >"$log"
  # Off a terminal the line is ended when the phase is, so it is still one line in a log.
  printf '%s' "$line" >&2
  "$@" </dev/null 2>&1 | phase_output "$log" "$line" || status=$?
  local took=$((SECONDS - start)) redraw= erase=
  if [[ -t 2 ]]; then redraw=$'\r'"$line" erase=$'\033[K'; fi
  if ((status == 0)); then
    local summary=
    if [[ -n $summary_pattern ]]; then
      summary=$(grep -E "$summary_pattern" "$log" | tail -n 1 || true)
      summary=${summary:+: $summary}
    fi
    printf '%s %s s%s%s\n' "$redraw" "$took" "$summary" "$erase" >&2
    return 0
  fi
  printf '%s failed after %s s (exit %s); the log is %s%s\n' "$redraw" "$took" "$status" \
    "$log" "$erase" >&2
  local errors lines=$phase_failure_lines
  errors=$(phase_errors "$log")
  if [[ -n $errors ]]; then
    echo "$phase_prefix: its errors:" >&2
    printf '%s\n' "$errors" >&2
    # The errors told, the end adds the summary (ctest's list of failed tests, make's stop).
    lines=$((lines / 3))
  fi
  # make's lines for targets already up to date say nothing about the failure.
  echo "$phase_prefix: the end of $log:" >&2
  grep -v -E '^\[ *[0-9]+%\] Built target ' "$log" | tail -n "$lines" >&2
  return "$status"
}
