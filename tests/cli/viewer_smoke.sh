#!/usr/bin/env bash
# The real viewer under a virtual X server: N frames, a screenshot of the window, exit 0 with
# a debug context that saw no GL error and a frame loop that never waited on the GPU (either
# makes `--frames` runs exit 4); with --timings the waits are allowed and timed. Also
# an odd window size, scenarios/mayflies.toml (deaths by max_age), the usage error for a 0x0
# size, and the message without a display.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

if ! command -v xvfb-run >/dev/null; then
  echo "viewer_smoke: xvfb-run is missing (tools/setup installs xvfb)" >&2
  exit 1
fi

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
xvfb=(xvfb-run -a -s "-screen 0 1280x720x24")

# Width and height of a PNG, from its IHDR chunk.
png_size() {
  python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"
}
# "several" when the PNG's pixels are not all one RGBA value, else "one".
png_colours() { python3 "$source_dir/tests/cli/png_tool.py" colours "$1"; }

# Runs murmur under Xvfb from $work, where the S and V keys (and imgui.ini) would write.
murmur_path=$(realpath "$murmur")
run_in_xvfb() {
  set +e
  (cd "$work" && "${xvfb[@]}" "$murmur_path" "$@") >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
  last_command="xvfb-run murmur $*"
}

for size in 1280x720 641x359; do
  shot=$work/shot-$size.png
  run_in_xvfb view --scenario "$scenario" --frames 20 --size "$size" --screenshot "$shot"
  expect_rc 0
  expect_stderr_contains "seed 42"
  if [[ -f $shot ]]; then
    [[ $(png_size "$shot") == "$size" ]] || fail "screenshot is $(png_size "$shot"), asked for $size"
    [[ $(png_colours "$shot") == several ]] || fail "screenshot at $size is all one colour"
    # The flock shows in the window's lower left quarter, away from the status line and the
    # panel: the frame is resolved straight into the window when nothing reads it back (a
    # stale copy of the output target would be black there).
    read -r width height <<<"${size/x/ }"
    lit=$(python3 "$source_dir/tests/cli/png_tool.py" lit "$shot" 0 $((height / 2)) \
          $((width / 2)) "$height" 40)
    ((lit > 0)) || fail "screenshot at $size shows no boid in its lower left quarter"
  else
    fail "view --screenshot did not write $shot"
    describe_run
  fi
done
# Nothing but the screenshots: no imgui.ini, no stray captures in the working directory.
stray=$(cd "$work" && ls -A | grep -v -e '^shot-' -e '^tiny.toml$' -e '^stdout$' -e '^stderr$' || true)
[[ -z $stray ]] || fail "view left files in its working directory: $stray"

# A living population: the mayflies die of age through these 450 steps while the viewer draws
# ribbons, heads and statistics from the live count; a GL error or a wait exits 4.
shot=$work/shot-mayflies.png
run_in_xvfb view --scenario "$source_dir/scenarios/mayflies.toml" --frames 30 --steps-per-frame 15 \
  --size 320x200 --screenshot "$shot"
expect_rc 0
if [[ -f $shot ]]; then
  [[ $(png_colours "$shot") == several ]] || fail "mayflies screenshot is all one colour"
else
  fail "view --screenshot did not write $shot"
  describe_run
fi

# --timings waits for the GPU after every part on purpose: that is no failure.
run_in_xvfb view --scenario "$scenario" --frames 5 --size 320x200 --timings
expect_rc 0
expect_stdout_contains "frame-time breakdown"

run_murmur view --scenario "$scenario" --size 0x0
expect_usage_error "--size" "[1, 16384]" "0x0"

run_murmur view --scenario "$scenario" --frames 2 --steps-per-frame 2 --step-rate 60
expect_usage_error "--steps-per-frame" "--step-rate"

set +e
env -u DISPLAY "$murmur" view --scenario "$scenario" >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
out=$(cat "$work/stdout")
err=$(cat "$work/stderr")
last_command="murmur view (no DISPLAY)"
expect_rc 4
expect_stderr_contains "no display"
expect_stderr_contains "murmur record"
[[ $err != *$'\n'* ]] || fail "no-display message is more than one line: $err"

finish
