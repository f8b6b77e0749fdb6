#!/usr/bin/env bash
# `murmur record` of a plan scenario (docs/floor-plan.md, "Viewing and recording"): frames of the
# plan growing, drawn on the GPU; the same seed gives the same bytes, another seed other
# frames; ink only accumulates (the lines of dead agents stay); a frame inks what `murmur plan`
# inks at that step; a clip; `--in` does not apply to a plan.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
png_tool() { python3 "$source_dir/tests/cli/png_tool.py" "$@"; }
command -v ffprobe >/dev/null || { echo "FAIL: ffprobe not found: tools/setup installs ffmpeg" >&2; exit 1; }

scenario=$source_dir/scenarios/floor-plan.toml
# Origin 003's look without the agents' markers: only lines on paper.
lines=$work/lines.toml
sed 's/^\[world\]$/[render]\nplan_agents = false\n\n[world]/' "$scenario" >"$lines"
grep -q '^plan_agents = false' "$lines" || fail "could not write $lines"

record() {  # record DIR SCENARIO SEED
  run_murmur record --scenario "$2" --seed "$3" --frames 4 --steps-per-frame 60 --size 200x200 \
    --quiet --out "$1"
  expect_rc 0
}
record "$work/a" "$scenario" 3
record "$work/b" "$scenario" 3
record "$work/c" "$scenario" 4
for k in 000000 000001 000002 000003; do
  expect_same_file "$work/a/frame_$k.png" "$work/b/frame_$k.png" "frame $k, seed 3 twice"
done
expect_different_file "$work/a/frame_000003.png" "$work/c/frame_000003.png" "frame 3, seeds 3 and 4"
grep -q '^agents = 20$' "$work/a/manifest.toml" || fail "the manifest does not count 20 agents"
grep -q '^boids' "$work/a/manifest.toml" && fail "a plan's manifest counts boids"

# Lines start at step 3: frame 0 is paper and the agents' red markers, no black ink.
[[ $(png_tool dark "$work/a/frame_000000.png" 64) == 0 ]] || fail "frame 0 has ink before step 3"
[[ $(png_tool lit "$work/a/frame_000000.png" 0 0 200 200 100) -gt 0 ]] ||
  fail "frame 0 shows nothing"

# Ink only grows, and each frame inks what `murmur plan` inks after the same steps (the GPU and
# the CPU rasterisers may settle a pixel on a stroke's edge either way: 3% at most).
record "$work/lines" "$lines" 3
previous=0
for k in 0 1 2 3; do
  frame=$work/lines/frame_00000$k.png
  ink=$(png_tool dark "$frame" 64)
  ((ink >= previous)) || fail "frame $k has less ink ($ink) than the frame before ($previous)"
  previous=$ink
  run_murmur plan --scenario "$scenario" --steps $((k * 60)) --size 200x200 --quiet \
    --out "$work/plan-$k.png"
  expect_rc 0
  exported=$(png_tool dark "$work/plan-$k.png" 64)
  if ((k > 0)); then
    ((exported > 100)) || fail "murmur plan's step $((k * 60)) has little ink ($exported)"
    ((ink * 100 >= exported * 97 && ink * 100 <= exported * 103)) ||
      fail "frame $k has $ink ink pixels, murmur plan's PNG $exported"
  fi
done

# A clip of the plan, its frames counted back by ffprobe.
run_murmur record --scenario "$scenario" --frames 12 --steps-per-frame 10 --size 160x160 \
  --quiet --out "$work/plan.mp4"
expect_rc 0
frames=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=nb_read_frames -of csv=p=0 "$work/plan.mp4")
[[ $frames == 12 ]] || fail "the clip has '$frames' frames, not 12"

# Glow: the lines light a dark sky.
glow=$work/glow.toml
sed 's/^\[world\]$/[render]\nblend = "glow"\n\n[world]/' "$scenario" >"$glow"
run_murmur record --scenario "$glow" --frames 1 --skip 120 --size 200x200 --quiet --out "$work/glow"
expect_rc 0
[[ $(png_tool dark "$work/glow/frame_000000.png" 64) -gt 30000 ]] || fail "glow: the sky is not dark"
[[ $(png_tool lit "$work/glow/frame_000000.png" 0 0 200 200 150) -gt 100 ]] ||
  fail "glow: no line is lit"

# A plan starts from its groups: a state file does not apply.
printf 'id,species,x,y,vx,vy\n0,0,1,1,1,0\n' >"$work/state.csv"
run_murmur record --scenario "$scenario" --in "$work/state.csv" --frames 1 --out "$work/in"
expect_usage_error "--in" "[[plan.group]]"
expect_no_file "$work/in/manifest.toml" "a refused --in"

finish
