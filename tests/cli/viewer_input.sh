#!/usr/bin/env bash
# Real keyboard and mouse events (xdotool) against the real viewer under a virtual X server:
# a left click drops an obstacle, a right click sets the target, Ctrl+drag steers a boid
# until the button is released, Space pauses, S writes a
# screenshot, V starts and stops a recording with a manifest, Esc quits with status 0. The
# window title carries the state the test reads back.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools viewer_input xvfb-run xdotool

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
captures=$work/captures
mkdir -p "$captures"

# Runs inside the virtual X server: start the viewer, drive it, report the titles it showed.
cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 captures=$3 log=$4
# --frames is only a safety net: Esc must end the run long before it.
"$murmur" view --scenario "$scenario" --size 640x360 --out-dir "$captures" --frames 100000 \
  >"$log.stdout" 2>"$log.stderr" &
viewer=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
title() { sleep 1.5; xdotool getwindowname "$window"; }  # the title refreshes twice a second
# The panel covers the right of a 640-wide window from x = 212 and the status line its top
# left: the 60 x 40 world is fitted left of the panel (rows 109 to 251), where the clicks go.
xdotool mousemove --window "$window" 100 150 click 1
xdotool mousemove --window "$window" 160 230 click 3
echo "after clicks: $(title)"
xdotool mousemove --window "$window" 120 200 keydown ctrl mousedown 1
xdotool mousemove --window "$window" 140 220
echo "while steering: $(title)"
xdotool mouseup 1 keyup ctrl
echo "after steering: $(title)"
xdotool key --window "$window" space
echo "after space: $(title)"
xdotool key --window "$window" s
xdotool key --window "$window" v
echo "while recording: $(title)"
xdotool key --window "$window" v
echo "after recording: $(title)"
xdotool key --window "$window" Escape
wait $viewer
echo "exit status: $?"
DRIVE

set +e
xvfb-run -a -s "-screen 0 1280x720x24" bash "$work/drive.bash" "$murmur" "$scenario" "$captures" "$work/viewer" \
  >"$work/drive.out" 2>&1
set -e
out=$(cat "$work/drive.out")
err=$(cat "$work/viewer.stderr" 2>/dev/null || true)
last_command="xvfb-run bash drive.bash (murmur view driven by xdotool)"
rc=0

line() { grep "^$1: " <<<"$out" | head -n 1 | sed "s/^$1: //"; }  # what LABEL reported
expect_line() {  # expect_line LABEL TEXT: the line LABEL reports contains TEXT
  if [[ $(line "$1") != *"$2"* ]]; then
    fail "$1: title lacks '$2'"
    describe_run
  fi
}
expect_line "after clicks" "1 obstacle"
expect_line "after clicks" "target"
expect_line "while steering" "steering boid"
if [[ $(line "after steering") == *steering* ]]; then fail "releasing the button kept steering"; describe_run; fi
expect_line "after steering" "1 obstacle"  # a Ctrl+drag drops no obstacle
expect_line "after space" "paused"
expect_line "while recording" "REC"
if [[ $(line "after recording") == *REC* ]]; then fail "V did not stop the recording"; describe_run; fi
expect_line "exit status" "0"

[[ -f $captures/screenshot_000000.png ]] || { fail "S wrote no screenshot_000000.png"; ls -R "$captures" >&2; }
[[ -f $captures/recording_000000/manifest.toml ]] || { fail "V left no recording manifest"; ls -R "$captures" >&2; }
frames=$(find "$captures/recording_000000" -name 'frame_*.png' 2>/dev/null | wc -l)
((frames >= 1)) || fail "the recording holds no frames"

finish
