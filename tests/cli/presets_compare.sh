#!/usr/bin/env bash
# Every origin preset (scenarios/originNNN-*.toml) holds the GPU to the CPU reference under
# `murmur compare`: the presets are where the model options meet at the origin programs' own
# numbers (no force limit, linear kernels, push walls, an obstacle with a linear target), so a
# backend that drifts on one of them fails here, by the preset's name. A new preset is covered
# without editing the test.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

shopt -s nullglob
presets=("$source_dir"/scenarios/origin[0-9][0-9][0-9]-*.toml)
((${#presets[@]} > 0)) || fail "no origin presets found in $source_dir/scenarios"

for preset in "${presets[@]}"; do
  name=$(basename "$preset" .toml)
  run_murmur compare --scenario "$preset" --steps 100 --lockstep 3 --quiet
  if [[ $rc -ne 0 || $out != *"overall: PASS"* ]]; then
    fail "$name: murmur compare did not pass"
    describe_run
  fi
done

finish
