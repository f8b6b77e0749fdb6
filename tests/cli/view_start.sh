#!/usr/bin/env bash
# `murmur view --in FILE --skip S` starts where `murmur record --in FILE --skip S` starts: a
# state whose boids all sit at the bottom right of the world is drawn there and nowhere else
# (the seeded start, drawn for contrast, fills the world), and --skip flies them left before
# the first frame, in both, each showing the skipped steps on its progress line (--quiet: none).
# A bad state file is exit 2 with one line naming it; --in excludes --seed (a seed shapes only
# a seeded start).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools view_start xvfb-run

scenario=$work/tiny.toml
write_tiny_scenario "$scenario" bounded 12
xvfb=(xvfb-run -a -s "-screen 0 1280x720x24")
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

# Twelve boids in x in [34, 45], y in [3, 6] of the 60 x 40 world, flying left at 1.5 per step.
{
  echo "id,species,x,y,vx,vy"
  for i in $(seq 0 11); do echo "$i,0,$((34 + i)),$((3 + i % 4)),-1.5,0"; done
} >"$work/right.csv"

# Regions of the 60 x 40 world, in world units (x0 y0 x1 y1, y up): bottom_left (x < 16 units,
# the bottom 9 units) and the sky above it are where the skipped boids arrive and where none
# ever is; bottom_right is where the state's boids start. 20 steps at 1.5 bring them into
# bottom_left; the sky starts at y = 13.5: the highest heads after --skip 20 reach about
# y = 11.5, and their glow a few pixels above (the bloom's first level is a quarter of the
# frame's side).
bottom_left=(0 0 16 9)
bottom_right=(31 0 46.5 9)
sky=(0 13.5 16 40)
# Each image frames the world its own way: `murmur record` fits it in the whole 640 x 360 frame
# (9 px a unit from x = 50, its bottom on row 360); the viewer, at its default 1280 x 720, fits
# it beside its panel (docs/viewer.md, "Fitting beside the panel": the 852 x 720 pixels left of
# the panel, 14.2 px a unit from x = 0, its bottom on row 644).
size=640x360
recorded_frame=(50 360 9)
viewed_frame=(0 644 14.2)
# Pixels [X0, X1) x [Y0, Y1) from the top left of a region of world units in a framing
# (left, bottom row, pixels a unit).
pixels() {
  local -a frame=($1)
  awk -v ox="${frame[0]}" -v bottom="${frame[1]}" -v ppu="${frame[2]}" -v x0="$2" -v y0="$3" \
    -v x1="$4" -v y1="$5" \
    'BEGIN { printf "%d %d %d %d", ox + x0 * ppu, bottom - y1 * ppu, ox + x1 * ppu, bottom - y0 * ppu }'
}
level=60  # a channel above this is a boid or its glow, not the night-blue sky
# lit IMAGE FRAMING REGION...: the pixels above `level` in a world region of that framing.
lit() {
  local image=$1 framing=$2
  shift 2
  # shellcheck disable=SC2046
  python3 "$source_dir/tests/cli/png_tool.py" lit "$image" $(pixels "$framing" "$@") "$level"
}
image_or_fail() {
  [[ -f $1 ]] && return 0
  fail "no image $1"
  describe_run
  return 1
}
# Step 0 of the file: nothing left of x = 16 units; the recording shows them on the right.
run_murmur record --scenario "$scenario" --in "$work/right.csv" --frames 1 --size "$size" \
  --out "$work/recorded" --quiet
expect_rc 0
if image_or_fail "$work/recorded/frame_000000.png"; then
  (($(lit "$work/recorded/frame_000000.png" "${recorded_frame[*]}" "${bottom_right[@]}") > 0)) ||
    fail "record --in: the state's boids are not drawn"
  (($(lit "$work/recorded/frame_000000.png" "${recorded_frame[*]}" "${bottom_left[@]}") == 0)) ||
    fail "record --in: boids drawn where the state has none"
fi
run_in_xvfb view --scenario "$scenario" --in "$work/right.csv" --frames 1 \
  --screenshot "$work/viewed.png"
expect_rc 0
if image_or_fail "$work/viewed.png"; then
  (($(lit "$work/viewed.png" "${viewed_frame[*]}" "${bottom_right[@]}") > 0)) ||
    fail "view --in: the state's boids are not drawn"
  (($(lit "$work/viewed.png" "${viewed_frame[*]}" "${bottom_left[@]}") +
    $(lit "$work/viewed.png" "${viewed_frame[*]}" "${sky[@]}") == 0)) ||
    fail "view --in: boids drawn where the state has none"
fi

# Without --in the seeded start spreads the boids over the world: the check above can fail.
run_in_xvfb view --scenario "$scenario" --frames 1 --screenshot "$work/seeded.png"
expect_rc 0
if image_or_fail "$work/seeded.png"; then
  (($(lit "$work/seeded.png" "${viewed_frame[*]}" "${sky[@]}") > 0)) ||
    fail "the seeded start left the sky empty"
fi

# --skip 20 flies them 30 units left before the first frame, into bottom_left, in both.
run_murmur record --scenario "$scenario" --in "$work/right.csv" --skip 20 --frames 1 \
  --size "$size" --out "$work/skipped" --quiet
expect_rc 0
run_in_xvfb view --scenario "$scenario" --in "$work/right.csv" --skip 20 --frames 1 \
  --screenshot "$work/viewed_skipped.png"
expect_rc 0
# Off a terminal the skip ends with its final line (tests/cli/progress.sh checks the terminal).
expect_stderr_contains "murmur view: skipping 20/20 steps (100%) in "
run_in_xvfb view --scenario "$scenario" --in "$work/right.csv" --skip 20 --frames 1 --quiet
expect_rc 0
[[ $err != *"skipping"* ]] || { fail "view --skip --quiet printed progress"; describe_run; }
for framed in "$work/skipped/frame_000000.png:${recorded_frame[*]}" \
              "$work/viewed_skipped.png:${viewed_frame[*]}"; do
  image=${framed%%:*} framing=${framed#*:}
  image_or_fail "$image" || continue
  (($(lit "$image" "$framing" "${bottom_left[@]}") > 0)) ||
    fail "$image: --skip 20 did not move the boids on"
  (($(lit "$image" "$framing" "${sky[@]}") == 0)) || fail "$image: boids in the sky after --skip 20"
done

printf 'id,species,x,y,vx,vy\n0,0,banana,10,1,0\n' >"$work/bad.csv"
run_murmur view --scenario "$scenario" --in "$work/bad.csv"
expect_rc 2
expect_stdout_empty
expect_stderr_contains "bad.csv:2:"
[[ $err != *$'\n'* ]] || fail "the bad file's message is more than one line: $err"

run_murmur view --scenario "$scenario" --in "$work/absent.csv"
expect_rc 2
expect_stderr_contains "absent.csv"

run_murmur view --scenario "$scenario" --in "$work/right.csv" --seed 3
expect_usage_error "--seed" "--in"

run_murmur view --scenario "$scenario" --skip -1
expect_usage_error "--skip"

finish
