#!/usr/bin/env bash
# A GL error ends step, stats, record, compare and bench with exit 4 and the driver's message,
# and leaves no output that looks complete. The error is planted through the documented test
# aid MURMUR_TEST_GL_ERROR_AT_STEP (docs/gpu.md): step K of every GPU flock makes one invalid
# GL call. Each command first runs clean, so that a pass is not a broken command failing anyway.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario" wrap 48
planted=2
driver_message="GL_INVALID_VALUE"

# Exit 4, the stage and the driver's words on one stderr line, after whatever the command
# printed before the error.
expect_gl_error() {
  expect_rc 4
  expect_stderr_contains "murmur $1: during $2: GL error"
  expect_stderr_contains "$driver_message"
}

planted_run() {
  set +e
  MURMUR_TEST_GL_ERROR_AT_STEP=$planted "$murmur" "$@" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
  last_command="MURMUR_TEST_GL_ERROR_AT_STEP=$planted murmur $*"
}

# step: no state file, neither under its name nor as a leftover temporary.
run_murmur step --scenario "$scenario" --steps 5 --out "$work/clean.csv"
expect_rc 0
planted_run step --scenario "$scenario" --steps 5 --out "$work/state.csv"
expect_gl_error step "the steps"
expect_no_file "$work/state.csv" "step after a GL error"
if compgen -G "$work/state.csv*" >/dev/null; then
  fail "step left $(compgen -G "$work/state.csv*")"
fi
# An error in the very last step is caught too (before the read-back is written).
planted_run step --scenario "$scenario" --steps $((planted + 1)) --out "$work/state.csv"
expect_gl_error step "the steps"
expect_no_file "$work/state.csv" "step whose last step made a GL error"
# Fewer steps than the planted one: no error, and the state is the clean run's.
planted_run step --scenario "$scenario" --steps $planted --out "$work/before.csv"
expect_rc 0
run_murmur step --scenario "$scenario" --steps $planted --out "$work/before-clean.csv"
expect_same_file "$work/before.csv" "$work/before-clean.csv" "steps before the planted error"

# stats: rows up to the error, none after it, no CSV file.
planted_run stats --scenario "$scenario" --steps 5
expect_gl_error stats "the steps"
expect_stdout_contains $'\n'"$planted,"
if [[ $out == *$'\n'"$((planted + 1)),"* ]]; then fail "stats printed a row after the GL error"; fi
planted_run stats --scenario "$scenario" --steps 5 --out "$work/stats.csv"
expect_gl_error stats "the steps"
expect_no_file "$work/stats.csv" "stats --out after a GL error"

# record: frame k shows the state after k steps, so frames 0..planted were drawn before the
# error and stay; the next frame, any half-written one and the manifest never appear.
run_murmur record --scenario "$scenario" --out "$work/clean-frames" --frames 6 --size 32x24 --quiet
expect_rc 0
frames=$work/frames
planted_run record --scenario "$scenario" --out "$frames" --frames 6 --size 32x24 --quiet
expect_gl_error record "frame $((planted + 1))"
expect_no_file "$frames/manifest.toml" "record after a GL error"
for ((frame = 0; frame <= planted; ++frame)); do
  name=$(printf 'frame_%06d.png' $frame)
  [[ -f $frames/$name ]] || fail "record lost $name, drawn before the GL error"
done
expect_no_file "$frames/$(printf 'frame_%06d.png' $((planted + 1)))" "record after a GL error"
if compgen -G "$frames/*.tmp" >/dev/null; then fail "record left $(compgen -G "$frames/*.tmp")"; fi

# compare: the header, then no report.
run_murmur compare --scenario "$scenario" --steps 4 --lockstep 3
expect_rc 0
planted_run compare --scenario "$scenario" --steps 4 --lockstep 3
expect_gl_error compare "the comparison"
expect_stdout_contains "murmur compare:"
if [[ $out == *"neighbour sets"* ]]; then fail "compare printed a report after a GL error"; fi

# bench: the table's header, then no row for the size whose timing saw the error.
run_murmur bench --sizes 64 --steps 3 --warmup 0 --backends grid
expect_rc 0
expect_stdout_contains "| 64 |"
planted_run bench --sizes 64 --steps 3 --warmup 0 --backends grid
expect_gl_error bench "the timing of 64 boids"
expect_stdout_contains "| N | grid ms/step"
if [[ $out == *"| 64 |"* ]]; then fail "bench printed a row after a GL error"; fi

# view: the viewer's own flock makes the error; the screenshot of the last frame never appears.
if command -v xvfb-run >/dev/null; then
  xvfb=(xvfb-run -a -s "-screen 0 640x360x24")
  set +e
  "${xvfb[@]}" "$murmur" view --scenario "$scenario" --size 320x180 --frames 6 \
    --screenshot "$work/clean.png" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
  last_command="murmur view --frames 6 (clean)"
  expect_rc 0
  set +e
  MURMUR_TEST_GL_ERROR_AT_STEP=$planted "${xvfb[@]}" "$murmur" view --scenario "$scenario" \
    --size 320x180 --frames 6 --screenshot "$work/shot.png" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
  last_command="MURMUR_TEST_GL_ERROR_AT_STEP=$planted murmur view --frames 6"
  expect_rc 4
  expect_stderr_contains "murmur view: during frame"
  expect_stderr_contains "$driver_message"
  expect_no_file "$work/shot.png" "view --screenshot after a GL error"
else
  fail "xvfb-run is missing (tools/setup installs xvfb)"
fi

# The test aid refuses what is not a step index, like any other bad input.
set +e
MURMUR_TEST_GL_ERROR_AT_STEP=soon "$murmur" step --scenario "$scenario" --steps 1 \
  --out "$work/x.csv" >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
out=$(cat "$work/stdout")
err=$(cat "$work/stderr")
last_command="MURMUR_TEST_GL_ERROR_AT_STEP=soon murmur step"
expect_rc 2
expect_stderr_contains "MURMUR_TEST_GL_ERROR_AT_STEP='soon' is not a step index"

finish
