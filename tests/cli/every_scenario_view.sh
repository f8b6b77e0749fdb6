#!/usr/bin/env bash
# Every scenario that ships in scenarios/ opens in the viewer under a virtual X server: two
# frames with a debug context that sees no GL error (which would exit 4), and a screenshot
# that is not one colour. every_scenario.sh does the same for the recorder. Plan scenarios (origin
# 003, docs/floor-plan.md) open in the floor plan's viewer, and a few steps a frame draw lines.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools every_scenario_view xvfb-run
xvfb=(xvfb-run -a -s "-screen 0 1280x720x24")
murmur_path=$(realpath "$murmur")

shopt -s nullglob
scenarios=("$source_dir"/scenarios/*.toml)
((${#scenarios[@]} > 0)) || fail "no scenarios found in $source_dir/scenarios"

for scenario in "${scenarios[@]}"; do
  name=$(basename "$scenario" .toml)
  screenshot=$work/$name.png
  set +e
  # From $work, where the viewer's imgui.ini goes.
  steps=1
  grep -Eq '^[[:space:]]*\[plan\]' "$scenario" && steps=4  # lines start at step 3
  (cd "$work" && "${xvfb[@]}" "$murmur_path" view --scenario "$scenario" --frames 2 \
    --steps-per-frame "$steps" --size 320x200 --screenshot "$screenshot") >"$work/stdout" \
    2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
  last_command="xvfb-run murmur view --scenario $scenario --frames 2"
  if ((rc != 0)); then
    fail "$name: the viewer failed"
    describe_run
    continue
  fi
  if [[ ! -f $screenshot ]]; then
    fail "$name: no screenshot"
  elif [[ $(python3 "$source_dir/tests/cli/png_tool.py" colours "$screenshot") != several ]]; then
    fail "$name: the screenshot is one colour"
  fi
done

finish
