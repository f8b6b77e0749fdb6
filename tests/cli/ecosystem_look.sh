#!/usr/bin/env bash
# Ecosystem scenarios are shown like any other, with origin 001's look: `murmur record` renders
# it headless, and each of its parts shows in the frame. The food field is drawn as blue boxes
# (against the same frame without them, many pixels gain blue more than red or green, and
# turning them off adds blue nowhere); the health colours, the circles by age and the food
# each change the frame when turned off (colour_by = "species", age_look = false,
# food = false). The viewer runs it under a virtual X server with its population plot and
# event counters, in a debug context that saw no GL error and a frame loop that never waited
# on the GPU (either makes a `--frames` run exit 4).
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

# The same frame with one part of the look turned off: the scenario with KEY's line replaced.
record_without() {  # record_without NAME KEY VALUE
  sed "s/^$2 *=.*/$2 = $3/" "$scenario" >"$work/$1.toml"
  grep -q "^$2 = $3\$" "$work/$1.toml" || sed -i "/^\[render\]/a $2 = $3" "$work/$1.toml"
  run_murmur record --scenario "$work/$1.toml" --out "$work/$1" --frames 2 --steps-per-frame 50 \
    --size 240x160 --quiet
  expect_rc 0
}
record_without no_food food false
record_without species_colours colour_by '"species"'
record_without no_age_look age_look false

# Pixels of frame A whose blue is 8 or more levels above the same pixel of frame B, and gained
# more than red and green did: the food boxes' light, where A has them and B not (the same
# steps, so the same boids and trails).
blue_gains() {
  /usr/bin/python3 -c '
import sys
sys.path.insert(0, sys.argv[3])
import png_tool
gains = 0
for a, b in zip(png_tool.rows(sys.argv[1]), png_tool.rows(sys.argv[2])):
    for i in range(0, len(a), 4):
        red, green, blue = (a[i + c] - b[i + c] for c in range(3))
        gains += blue >= 8 and blue > max(red, green)
print(gains)' "$1" "$2" "$source_dir/tests/cli"
}
with_food=$(blue_gains "$work/clip/frame_000001.png" "$work/no_food/frame_000001.png")
without_food=$(blue_gains "$work/no_food/frame_000001.png" "$work/clip/frame_000001.png")
echo "pixels the food boxes make bluer: $with_food; pixels bluer without them: $without_food"
# 400 cells of 8 x 8 pixels, full boxes 0.55 of a cell wide: some 7,700 pixels when every cell is
# full, fewer where grazers ate; 1,000 is a field mostly drawn.
((with_food >= 1000 && without_food == 0)) ||
  fail "the food boxes do not show: $with_food pixels bluer with them, $without_food without"
for variant in species_colours no_age_look; do
  cmp -s "$work/clip/frame_000001.png" "$work/$variant/frame_000001.png" &&
    fail "$variant: the frame is the same bytes as the look's, so that part of the look draws nothing"
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
