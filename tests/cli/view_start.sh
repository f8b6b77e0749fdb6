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

# The 60 x 40 world fills a 640 x 360 frame 9 px per unit from x = 50 px, y up. In the window
# the panel covers x > 210 px, so the open sky left of it is where both images are read:
# bottom_left (x < 16 units, the bottom 9 units) and sky (above that). The state's boids start
# at x > 300 px (bottom_right): in the recording, hidden by the panel in the window; 20 steps
# at 1.5 bring them into bottom_left.
size=640x360
bottom_left=(50 280 200 360)
bottom_right=(330 280 470 360)
# The sky stops at row 240: the highest heads after --skip 20 reach about row 255 and their glow
# a few pixels above (the bloom's first level is a quarter of the frame's side).
sky=(50 0 200 240)
level=60  # a channel above this is a boid or its glow, not the night-blue sky
lit() { python3 "$source_dir/tests/cli/png_tool.py" lit "$1" "${@:2}" "$level"; }
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
  (($(lit "$work/recorded/frame_000000.png" "${bottom_right[@]}") > 0)) ||
    fail "record --in: the state's boids are not drawn"
  (($(lit "$work/recorded/frame_000000.png" "${bottom_left[@]}") == 0)) ||
    fail "record --in: boids drawn where the state has none"
fi
run_in_xvfb view --scenario "$scenario" --in "$work/right.csv" --frames 1 --size "$size" \
  --screenshot "$work/viewed.png"
expect_rc 0
if image_or_fail "$work/viewed.png"; then
  (($(lit "$work/viewed.png" "${bottom_left[@]}") + $(lit "$work/viewed.png" "${sky[@]}") == 0)) ||
    fail "view --in: boids drawn where the state has none"
fi

# Without --in the seeded start spreads the boids over the world: the check above can fail.
run_in_xvfb view --scenario "$scenario" --frames 1 --size "$size" --screenshot "$work/seeded.png"
expect_rc 0
if image_or_fail "$work/seeded.png"; then
  (($(lit "$work/seeded.png" "${sky[@]}") > 0)) || fail "the seeded start left the sky empty"
fi

# --skip 20 flies them 30 units left before the first frame, into bottom_left, in both.
run_murmur record --scenario "$scenario" --in "$work/right.csv" --skip 20 --frames 1 \
  --size "$size" --out "$work/skipped" --quiet
expect_rc 0
run_in_xvfb view --scenario "$scenario" --in "$work/right.csv" --skip 20 --frames 1 \
  --size "$size" --screenshot "$work/viewed_skipped.png"
expect_rc 0
# Off a terminal the skip ends with its final line (tests/cli/progress.sh checks the terminal).
expect_stderr_contains "murmur view: skipping 20/20 steps (100%) in "
run_in_xvfb view --scenario "$scenario" --in "$work/right.csv" --skip 20 --frames 1 \
  --size "$size" --quiet
expect_rc 0
[[ $err != *"skipping"* ]] || { fail "view --skip --quiet printed progress"; describe_run; }
for image in "$work/skipped/frame_000000.png" "$work/viewed_skipped.png"; do
  image_or_fail "$image" || continue
  (($(lit "$image" "${bottom_left[@]}") > 0)) || fail "$image: --skip 20 did not move the boids on"
  (($(lit "$image" "${sky[@]}") == 0)) || fail "$image: boids in the sky after --skip 20"
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
