#!/usr/bin/env bash
# The floor plan's viewer (docs/viewer.md, "Floor plans") under a virtual X server: frames with
# a debug context that sees no GL error and a loop that never waits on the GPU, lines inked on
# the paper; then real events (xdotool): a click in the plan pauses and the next resumes, as in
# origin 003, Space too, the plan completes when every agent has died and the viewer pauses and
# says so, R grows it again, S writes a screenshot, V a recording whose manifest counts the
# agents, Esc quits with status 0. The window title carries the state the test reads back.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools plan_viewer xvfb-run xdotool
png_tool() { python3 "$source_dir/tests/cli/png_tool.py" "$@"; }
xvfb=(xvfb-run -a -s "-screen 0 1280x720x24")
murmur_path=$(realpath "$murmur")
scenario=$source_dir/scenarios/floor-plan.toml

# 40 frames of 6 steps: past step 208, when origin 003's plan is whole. The panel covers the
# window's right from x = 472, and the 800 x 800 canvas fits beside it (docs/viewer.md, "Fitting
# beside the panel"): 472 x 472 pixels from row 64; the status line covers the window's top.
shot=$work/plan.png
set +e
(cd "$work" && "${xvfb[@]}" "$murmur_path" view --scenario "$scenario" --frames 40 \
  --steps-per-frame 6 --size 900x600 --screenshot "$shot") >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
out=$(cat "$work/stdout")
err=$(cat "$work/stderr")
last_command="xvfb-run murmur view --scenario floor-plan.toml --frames 40"
expect_rc 0
if [[ -f $shot ]]; then
  ink=$(png_tool dark "$shot" 40 8 72 464 528)
  ((ink > 300)) || fail "the plan's canvas shows $ink ink pixels, expected its lines"
  paper=$(png_tool lit "$shot" 8 72 464 528 250)
  ((paper > 150000)) || fail "the plan's canvas is not paper ($paper light pixels)"
else
  fail "no screenshot of the plan"
  describe_run
fi

captures=$work/captures
mkdir -p "$captures"
cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 captures=$3 log=$4
# --frames is only a safety net: Esc must end the run long before it. A step rate, not steps
# per frame: the clicks must come before the plan is whole however fast the frames are drawn
# (at 2 steps a frame a 70 fps viewer finished it before the second click).
"$murmur" view --scenario "$scenario" --size 900x600 --step-rate 30 --out-dir "$captures" \
  --frames 100000 >"$log.stdout" 2>"$log.stderr" &
viewer=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
title() { sleep 1.5; xdotool getwindowname "$window"; }  # the title refreshes twice a second
echo "at start: $(title)"
xdotool mousemove --window "$window" 300 400 click 1
echo "after a click: $(title)"
xdotool mousemove --window "$window" 300 400 click 1
echo "after a second click: $(title)"
xdotool key --window "$window" space
echo "after space: $(title)"
xdotool key --window "$window" space
for _ in $(seq 1 40); do  # at 30 steps a second the plan is whole after some 7 s
  now=$(title)
  [[ $now == *complete* ]] && break
done
echo "when whole: $now"
xdotool key --window "$window" s
xdotool key --window "$window" v
echo "while recording: $(title)"
xdotool key --window "$window" v
xdotool key --window "$window" r
echo "after R: $(title)"
xdotool key --window "$window" Escape
wait $viewer
echo "exit status: $?"
DRIVE

set +e
"${xvfb[@]}" bash "$work/drive.bash" "$murmur_path" "$scenario" "$captures" "$work/viewer" \
  >"$work/drive.out" 2>&1
set -e
out=$(cat "$work/drive.out")
err=$(cat "$work/viewer.stderr" 2>/dev/null || true)
last_command="xvfb-run bash drive.bash (murmur view of a plan driven by xdotool)"
rc=0
line() { grep "^$1: " <<<"$out" | head -n 1 | sed "s/^$1: //"; }
expect_line() {  # expect_line LABEL TEXT: the line LABEL reports contains TEXT
  [[ $(line "$1") == *"$2"* ]] || { fail "$1: title lacks '$2'"; describe_run; }
}
expect_no() {  # expect_no LABEL TEXT
  [[ $(line "$1") != *"$2"* ]] || { fail "$1: title has '$2'"; describe_run; }
}
expect_line "at start" "20 agents"
expect_no "at start" "paused"
expect_line "after a click" "paused"
expect_no "after a second click" "paused"
expect_line "after space" "paused"
expect_line "when whole" "complete"
expect_line "when whole" "0 living"
expect_line "when whole" "paused"
expect_line "while recording" "REC"
expect_no "after R" "complete"
expect_line "exit status" "0"

[[ -f $captures/screenshot_000000.png ]] || { fail "S wrote no screenshot_000000.png"; ls -R "$captures" >&2; }
manifest=$captures/recording_000000/manifest.toml
if [[ -f $manifest ]]; then
  grep -q '^agents = 20$' "$manifest" || fail "the recording's manifest does not count 20 agents"
else
  fail "V left no recording manifest"
  ls -R "$captures" >&2
fi

finish
