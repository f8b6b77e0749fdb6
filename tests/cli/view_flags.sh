#!/usr/bin/env bash
# `murmur view`'s window flags do what they say, read back from the window under a virtual X
# server (xdotool): --fullscreen starts on the whole 1024x768 screen, and F11 then gives it its
# --size; without it the window has its --size. --no-vsync sets the swap interval to 0, which
# the viewer says once on stderr ("vsync off: ..."); with vsync on it says nothing of it.
# Interactive runs (no --frames, which turns vsync off by itself), each ended by Esc.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools view_flags xvfb-run xdotool

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
screen=1024x768
size=640x360
vsync_off_note="vsync off: frames are not paced to the display"

cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 size=$3 log=$4
# A safety net: Esc must end each run long before it.
viewer_limit_s=120
geometry() { sleep 1.5; xdotool getwindowgeometry "$1" | sed -n 's/.*Geometry: //p'; }
open_viewer() {  # open_viewer NAME FLAGS...: starts the viewer, sets $viewer and $window
  local name=$1
  shift
  timeout $viewer_limit_s "$murmur" view --scenario "$scenario" --size "$size" "$@" \
    >"$log.$name.stdout" 2>"$log.$name.stderr" &
  viewer=$!
  window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
}
close_viewer() {
  xdotool key --window "$window" Escape
  wait "$viewer"
  echo "$1 exit status: $?"
}

open_viewer fullscreen --fullscreen --no-vsync
echo "fullscreen at start: $(geometry "$window")"
xdotool key --window "$window" F11
echo "fullscreen after F11: $(geometry "$window")"
close_viewer fullscreen

open_viewer windowed
echo "windowed at start: $(geometry "$window")"
close_viewer windowed
DRIVE

set +e
xvfb-run -a -s "-screen 0 ${screen}x24" bash "$work/drive.bash" "$murmur" "$scenario" "$size" \
  "$work/viewer" >"$work/drive.out" 2>&1
set -e
out=$(cat "$work/drive.out")
last_command="xvfb-run bash drive.bash (murmur view --fullscreen --no-vsync, then murmur view)"
rc=0

line() { grep "^$1: " <<<"$out" | head -n 1 | sed "s/^$1: //"; }  # what LABEL reported
expect_line() {  # expect_line LABEL VALUE WHY
  if [[ $(line "$1") != "$2" ]]; then
    fail "$3: $1 is '$(line "$1")', not '$2'"
    err=$(cat "$work/viewer.fullscreen.stderr" "$work/viewer.windowed.stderr" 2>/dev/null || true)
    describe_run
  fi
}
expect_line "fullscreen at start" "$screen" "--fullscreen covers the $screen screen"
expect_line "fullscreen after F11" "$size" "F11 gives a fullscreen start its --size"
expect_line "windowed at start" "$size" "without --fullscreen the window has its --size"
expect_line "fullscreen exit status" 0 "Esc quits"
expect_line "windowed exit status" 0 "Esc quits"

err=$(cat "$work/viewer.fullscreen.stderr" 2>/dev/null || true)
last_command="murmur view --fullscreen --no-vsync"
expect_stderr_contains "$vsync_off_note"
if (($(grep -c "^$vsync_off_note\$" <<<"$err") != 1)); then
  fail "--no-vsync: the note is not one line of its own, once"
  describe_run
fi
err=$(cat "$work/viewer.windowed.stderr" 2>/dev/null || true)
last_command="murmur view (vsync on)"
if [[ $err == *"vsync off"* ]]; then
  fail "with vsync on the viewer says vsync is off"
  describe_run
fi

finish
