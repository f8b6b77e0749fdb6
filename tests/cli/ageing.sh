#!/usr/bin/env bash
# A species with max_age: `murmur step` on cpu, gpu and gpu-naive lets exactly the boids die
# whose age reaches max_age (counted here from the input file, independently of murmur), each
# survivor one step older per step; `murmur compare` follows the dying flock by id and passes.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

max_age=9
steps=5
scenario=$work/ageing.toml
write_tiny_scenario "$scenario" wrap 200
printf 'max_age = %d\n' "$max_age" >>"$scenario"

# A start whose ages are staggered by id (age = id mod 13): some die in each of the steps,
# some are past max_age already (dead before the first step).
run_murmur step --scenario "$scenario" --backend cpu --steps 0 --out "$work/start.csv"
expect_rc 0
awk -F, 'NR == 1 { print; next } { $7 = $1 % 13; print }' OFS=, "$work/start.csv" >"$work/aged.csv"

# The survivors after $steps steps: age + steps < max_age.
awk -F, -v steps=$steps -v max_age=$max_age \
  'NR > 1 && $7 + steps < max_age { print $1 " " $7 + steps }' "$work/aged.csv" | sort -n \
  >"$work/expected.txt"
[[ -s $work/expected.txt ]] || fail "the test start has no survivors: it would prove nothing"
(($(wc -l <"$work/expected.txt") < 200)) || fail "the test start has no deaths"

for backend in cpu gpu gpu-naive; do
  run_murmur step --scenario "$scenario" --backend $backend --in "$work/aged.csv" --steps $steps \
    --out "$work/$backend.csv"
  expect_rc 0
  awk -F, 'NR > 1 { print $1 " " $7 }' "$work/$backend.csv" | sort -n >"$work/$backend.txt"
  if ! cmp -s "$work/expected.txt" "$work/$backend.txt"; then
    fail "$backend: survivors (id age) differ from the independent count"
    diff "$work/expected.txt" "$work/$backend.txt" | head -5 >&2
  fi
done

run_murmur compare --scenario "$scenario" --in "$work/aged.csv" --lockstep 6 --steps 6 --samples 2
expect_rc 0
expect_stdout_contains "overall: PASS"
expect_stdout_contains "deaths"

finish
