#!/usr/bin/env bash
# The viewer's keys and the 2D camera's mouse, driven by real events (xdotool) under a virtual X
# server, each read back from the window title (docs/commands.md, the viewer's keys): Space
# pauses and N steps once while paused; 1-4 choose the rules; R restarts at step 0 with the same
# seed, Shift+R with another; H hides the panel; the wheel zooms about the cursor and a drag
# pans; F fits the world again; F11 fills the screen and gives the window back.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools viewer_keys xvfb-run xdotool

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"

cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 log=$3
"$murmur" view --scenario "$scenario" --size 640x360 --frames 100000 \
  >"$log.stdout" 2>"$log.stderr" &
viewer=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
title() { sleep 1.5; xdotool getwindowname "$window"; }  # the title refreshes twice a second
size() { xdotool getwindowgeometry "$window" | sed -n 's/.*Geometry: //p'; }
xdotool key --window "$window" space
echo "paused: $(title)"
for _ in 1 2 3; do xdotool key --window "$window" n; sleep 0.3; done
echo "after three N: $(title)"
xdotool key --window "$window" 2
echo "after 2: $(title)"
xdotool key --window "$window" 4
echo "after 4: $(title)"
xdotool key --window "$window" r
echo "after R: $(title)"
xdotool key --window "$window" shift+r
echo "after shift+R: $(title)"
xdotool key --window "$window" h
echo "after H: $(title)"
xdotool key --window "$window" h
echo "after second H: $(title)"
# The panel covers the right of the window from x = 212: the camera's gestures happen left of it.
xdotool mousemove --window "$window" 100 180 click 4 click 4
echo "after two wheel steps: $(title)"
# A frame apart each, as a hand moves: the viewer reads the gesture frame by frame.
xdotool mousemove --window "$window" 100 180 mousedown 1
sleep 0.3
xdotool mousemove --window "$window" 140 200
sleep 0.3
xdotool mousemove --window "$window" 180 220
sleep 0.3
xdotool mouseup 1
echo "after a drag: $(title)"
xdotool key --window "$window" f
echo "after F: $(title)"
echo "window: $(size)"
xdotool key --window "$window" F11
sleep 1.5
echo "fullscreen window: $(size)"
xdotool key --window "$window" F11
sleep 1.5
echo "windowed again: $(size)"
xdotool key --window "$window" Escape
wait $viewer
echo "exit status: $?"
DRIVE

set +e
xvfb-run -a -s "-screen 0 1280x720x24" bash "$work/drive.bash" "$murmur" "$scenario" "$work/viewer" \
  >"$work/drive.out" 2>&1
set -e
out=$(cat "$work/drive.out")
err=$(cat "$work/viewer.stderr" 2>/dev/null || true)
last_command="xvfb-run bash drive.bash (murmur view driven by xdotool)"
rc=0

line() { grep "^$1: " <<<"$out" | head -n 1 | sed "s/^$1: //"; }
field() { sed -n "s/.* - $2 \([0-9.]*\).*/\1/p" <<<"$(line "$1")"; }  # the number after " - NAME "
expect() {  # expect LABEL WHAT CONDITION (a bash arithmetic or [[ ]] test, already evaluated)
  if ! eval "$3"; then fail "$1: $2 (title: $(line "$1"))"; fi
}

paused_step=$(field paused step)
expect paused "Space pauses" '[[ $(line paused) == *"- paused"* && -n $paused_step ]]'
expect "after three N" "three N make three steps" '(( $(field "after three N" step) == paused_step + 3 ))'
expect "after 2" "2 chooses alignment only" '[[ $(line "after 2") == *"- alignment only"* ]]'
expect "after 4" "4 brings back all rules" '[[ $(line "after 4") != *"alignment only"* ]]'
seed=$(field paused seed)
expect "after R" "R restarts at step 0 with seed $seed" \
  '(( $(field "after R" step) == 0 )) && [[ $(field "after R" seed) == "$seed" ]]'
expect "after shift+R" "Shift+R restarts with another seed" \
  '(( $(field "after shift+R" step) == 0 )) && [[ $(field "after shift+R" seed) != "$seed" ]]'
expect "after H" "H hides the panel" '[[ $(line "after H") == *"panel hidden"* ]]'
expect "after second H" "H shows it again" '[[ $(line "after second H") != *"panel hidden"* ]]'
# Two wheel steps up zoom in by the viewer's step, 1.15, twice.
zoom=$(field "after two wheel steps" zoom)
expect "after two wheel steps" "the wheel zooms by 1.15 a step" \
  'awk -v z="$zoom" "BEGIN { exit !(z > 1.32245 && z < 1.32255) }"'
# A drag of (80, 40) pixels (y down) moves the centre by (-80, +40) pixels' worth of world
# units: the view fitted beside the panel (the 212 x 360 pixels left of it) has
# min(212 / 60, 360 / 40) = 3.5333 pixels a unit, times the zoom.
read -r cx0 cy0 < <(sed -n 's/.* at \([0-9.-]*\) \([0-9.-]*\).*/\1 \2/p' <<<"$(line "after two wheel steps")")
read -r cx1 cy1 < <(sed -n 's/.* at \([0-9.-]*\) \([0-9.-]*\).*/\1 \2/p' <<<"$(line "after a drag")")
expect "after a drag" "a drag of (80, 40) pixels pans by as many pixels of world" \
  'awk -v a="$cx0" -v b="$cy0" -v c="$cx1" -v d="$cy1" -v z="$zoom" "BEGIN { u = 212 / 60 * z; exit !(c - a < -80 / u + 0.06 && c - a > -80 / u - 0.06 && d - b < 40 / u + 0.06 && d - b > 40 / u - 0.06) }"'
expect "after F" "F fits the world again" '[[ $(line "after F") != *"zoom"* ]]'
expect "fullscreen window" "F11 fills the 1280x720 screen" '[[ $(line "fullscreen window") == "1280x720" ]]'
expect "windowed again" "F11 gives the window its size back" '[[ $(line "windowed again") == "$(line window)" ]]'
expect "exit status" "Esc quits with status 0" '[[ $(line "exit status") == 0 ]]'
echo "$out"
finish
