#!/usr/bin/env bash
# Every scenario that ships in scenarios/ parses and records two frames headless: a preset that
# a key rename, a tightened range or a renderer change broke fails here, by name, without this
# test being edited when a scenario is added. Small frames and one step a frame keep it fast.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

shopt -s nullglob
scenarios=("$source_dir"/scenarios/*.toml)
((${#scenarios[@]} > 0)) || fail "no scenarios found in $source_dir/scenarios"

for scenario in "${scenarios[@]}"; do
  name=$(basename "$scenario" .toml)
  out_dir=$work/$name
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
