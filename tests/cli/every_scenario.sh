#!/usr/bin/env bash
# Every scenario that ships in scenarios/ parses and records two frames headless: a preset that
# a key rename, a tightened range or a renderer change broke fails here, by name, without this
# test being edited when a scenario is added. Small frames and one step a frame keep it fast.
# A plan scenario (a [plan] table, origin 003) is also drawn by `murmur plan`: a few steps to a
# small PNG that must hold ink.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

shopt -s nullglob
scenarios=("$source_dir"/scenarios/*.toml)
((${#scenarios[@]} > 0)) || fail "no scenarios found in $source_dir/scenarios"

for scenario in "${scenarios[@]}"; do
  name=$(basename "$scenario" .toml)
  out_dir=$work/$name
  if grep -Eq '^[[:space:]]*\[plan\]' "$scenario"; then
    # Lines start at step 3 (docs/model.md), so 8 steps draw some.
    run_murmur plan --scenario "$scenario" --steps 8 --size 96x96 --quiet --out "$work/$name.png"
    if [[ $rc -ne 0 ]]; then
      fail "$name: murmur plan failed"
      describe_run
    elif [[ $(python3 "$source_dir/tests/cli/png_tool.py" colours "$work/$name.png") != several ]]; then
      fail "$name: the plan is one colour (no line drawn)"
    fi
  fi
  run_murmur record --scenario "$scenario" --frames 2 --size 96x64 --quiet --out "$out_dir"
  if [[ $rc -ne 0 ]]; then
    fail "$name: murmur record failed"
    describe_run
    continue
  fi
  for file in frame_000000.png frame_000001.png manifest.toml; do
    [[ -f $out_dir/$file ]] || fail "$name: no $file"
  done
  expect_no_file "$out_dir/frame_000002.png" "$name: --frames 2"
  # A frame of one colour is a blank world: nothing of the flock was drawn.
  if [[ -f $out_dir/frame_000001.png ]]; then
    [[ $(python3 "$source_dir/tests/cli/png_tool.py" colours "$out_dir/frame_000001.png") == several ]] ||
      fail "$name: frame 1 is one colour (no boid drawn)"
  fi
done

finish
