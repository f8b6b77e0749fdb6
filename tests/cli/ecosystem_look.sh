#!/usr/bin/env bash
# Ecosystem scenarios are shown like any other: `murmur record` renders seed 001's look (food
# boxes, health colour, circles by age) headless, and the viewer runs it under a virtual X
# server with its population plot and event counters, in a debug context that saw no GL error
# and a frame loop that never waited on the GPU (either makes a `--frames` run exit 4).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools ecosystem_look xvfb-run

scenario=$source_dir/scenarios/ecosystem.toml

run_murmur record --scenario "$scenario" --out "$work/clip" --frames 2 --steps-per-frame 50 \
  --size 240x160 --quiet
expect_rc 0
for file in frame_000000.png frame_000001.png manifest.toml; do
  [[ -f $work/clip/$file ]] || fail "record did not write $file"
done

murmur_path=$(realpath "$murmur")
set +e
(cd "$work" && xvfb-run -a -s "-screen 0 1280x720x24" "$murmur_path" view --scenario "$scenario" \
  --frames 30 --steps-per-frame 10 --size 640x400 --screenshot "$work/view.png") \
  >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
out=$(cat "$work/stdout")
err=$(cat "$work/stderr")
last_command="xvfb-run murmur view --scenario $scenario --frames 30"
expect_rc 0
[[ -f $work/view.png ]] || fail "view --screenshot did not write view.png"

finish
