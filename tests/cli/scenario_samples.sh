#!/usr/bin/env bash
# The sample scenarios of docs/scenarios.md ("The shipped scenarios, and the format at a
# glance", which the README points to) run as they are: each TOML block of that section steps
# 10 times. A sample with a [food] table has a species that eats it: its field after 10 steps
# holds less food than the same sample's with every `grazes = true` turned off (a field that
# no species grazes is only drawn, never eaten: a sample that would show a checkerboard).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

page=$source_dir/docs/scenarios.md
section="## The shipped scenarios, and the format at a glance"
grep -qxF "$section" "$page" || fail "docs/scenarios.md has no section '$section'"

# Each ```toml block of the section into sample_N.toml.
awk -v section="$section" -v dir="$work" '
  $0 == section { inside = 1; next }
  inside && /^## / { inside = 0 }
  inside && /^```toml$/ { n++; file = dir "/sample_" n ".toml"; next }
  file != "" && /^```$/ { close(file); file = ""; next }
  file != "" { print > file }
' "$page"
shopt -s nullglob
samples=("$work"/sample_*.toml)
((${#samples[@]} >= 2)) || fail "found ${#samples[@]} TOML samples in '$section', expected the flock and the ecosystem"

# The food field's total after the run (the last row's last column of `murmur stats`).
food_after() {  # food_after SCENARIO
  run_murmur stats --scenario "$1" --steps 10 --every 10 --quiet
  expect_rc 0
  tail -1 <<<"$out" | awk -F, '{ print $NF }'
}

for sample in "${samples[@]}"; do
  name=$(basename "$sample" .toml)
  run_murmur step --scenario "$sample" --steps 10 --out "$work/$name.csv" --quiet
  if [[ $rc -ne 0 ]]; then
    fail "$name (docs/scenarios.md): murmur step failed"
    describe_run
    continue
  fi
  [[ -s $work/$name.csv ]] || fail "$name: murmur step wrote no state"
  if grep -q '^\[food\]' "$sample"; then
    grazed=$(food_after "$sample")
    sed 's/^grazes = true/grazes = false/' "$sample" >"$work/${name}_ungrazed.toml"
    ungrazed=$(food_after "$work/${name}_ungrazed.toml")
    echo "$name: food after 10 steps $grazed, $ungrazed with no species grazing"
    awk -v a="$grazed" -v b="$ungrazed" 'BEGIN { exit !(a + 0 < b + 0) }' ||
      fail "$name: its [food] field is not eaten ($grazed after 10 steps, $ungrazed with no grazer): no species grazes it"
  fi
done

finish
