#!/usr/bin/env bash
# Fitting beside the panel (docs/viewer.md, "Fitting beside the panel"): at the start and on F a
# 2D world fits in the part of the default 1280x720 window that the panel leaves free; with the
# panel hidden (H), F fits it in the whole window; `murmur record`, which has no panel, fits it
# in the whole frame as before. Driven by real events (xdotool) under a virtual X server; each
# framing is read from an S screenshot (the rendered frame, without the panel): the world's
# rectangle is what is not the letterbox's black.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools viewer_fit xvfb-run xdotool

# A few boids, no glow and no trails: nothing but the world's sky and the boids is lit.
scenario=$work/tiny.toml
write_tiny_scenario "$scenario" wrap 4
printf '\n[render]\nbloom = false\ntrails = "none"\n' >>"$scenario"
captures=$work/captures
mkdir -p "$captures"

cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 captures=$3 log=$4
"$murmur" view --scenario "$scenario" --out-dir "$captures" --frames 100000 \
  >"$log.stdout" 2>"$log.stderr" &
viewer=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
title() { sleep 1.5; xdotool getwindowname "$window"; }  # the title refreshes twice a second
shot() { sleep 0.5; xdotool key --window "$window" s; sleep 0.5; }
shot  # screenshot_000000: the start
xdotool key --window "$window" h
xdotool key --window "$window" f
echo "hidden: $(title)"
shot  # screenshot_000001: F with the panel hidden
xdotool key --window "$window" h
xdotool mousemove --window "$window" 300 300 click 4 click 4
echo "zoomed: $(title)"
xdotool key --window "$window" f
echo "shown: $(title)"
shot  # screenshot_000002: F with the panel shown again
xdotool key --window "$window" Escape
wait $viewer
echo "exit status: $?"
DRIVE

set +e
xvfb-run -a -s "-screen 0 1280x720x24" bash "$work/drive.bash" "$murmur" "$scenario" "$captures" \
  "$work/viewer" >"$work/drive.out" 2>&1
set -e
titles=$(cat "$work/drive.out")
line() { grep "^$1: " <<<"$titles" | head -n 1 | sed "s/^$1: //"; }

# The default window and its panel (src/viewer/panel_widgets.cpp): 420 units wide, 8 from the
# window's right edge, so the world keeps to x < 852. The 60 x 40 world fits that part 14.2
# pixels a unit (852 x 568, rows 76 to 644), and the whole window 18 a unit (1080 x 720 from
# x = 100).
free_width=852
beside_panel="0 76 852 644"
whole_window="100 0 1180 720"
# The corners are rounded to whole pixels.
rounding_pixels=1
sky_level=20  # the sky's blue channel is above this, the letterbox's black below
extent() { python3 "$source_dir/tests/cli/png_tool.py" extent "$1" "$sky_level"; }
near() {  # near BOX EXPECTED: each side within rounding_pixels
  local -a got=($1) want=($2)
  ((${#got[@]} == 4)) || return 1
  for i in 0 1 2 3; do
    local difference=$((got[i] - want[i]))
    ((difference <= rounding_pixels && difference >= -rounding_pixels)) || return 1
  done
}
expect_framing() {  # expect_framing FILE EXPECTED WHAT
  if [[ ! -f $1 ]]; then
    fail "$3: no screenshot $1"
    ls -R "$captures" >&2
    return
  fi
  local box
  box=$(extent "$1")
  near "$box" "$2" || fail "$3: the world fills $box, expected $2"
}

expect_framing "$captures/screenshot_000000.png" "$beside_panel" "the start, beside the panel"
expect_framing "$captures/screenshot_000001.png" "$whole_window" "F with the panel hidden"
expect_framing "$captures/screenshot_000002.png" "$beside_panel" "F with the panel shown again"
# Beside the panel, not under it: nothing of the world right of its left edge.
if [[ -f $captures/screenshot_000000.png ]]; then
  read -r _ _ right _ <<<"$(extent "$captures/screenshot_000000.png")"
  ((right <= free_width)) || fail "the panel covers the world up to x = $right"
fi
[[ $(line hidden) == *"panel hidden"* ]] || fail "H did not hide the panel: $(line hidden)"
[[ $(line zoomed) == *" - zoom "* ]] || fail "the wheel did not zoom: $(line zoomed)"
[[ $(line shown) != *" - zoom "* ]] || fail "F did not fit the world again: $(line shown)"
[[ $(line "exit status") == 0 ]] || fail "Esc did not quit with status 0"

# The recorder fits the whole frame, as it always has.
run_murmur record --scenario "$scenario" --frames 1 --out "$work/recorded" --quiet
expect_rc 0
expect_framing "$work/recorded/frame_000000.png" "$whole_window" "murmur record"

echo "$titles"
finish
