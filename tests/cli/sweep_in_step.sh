#!/usr/bin/env bash
# `murmur sweep --vary-with`: a key in step with the last --vary. Its runs are exactly the runs
# of separate sweeps that set both keys to each pair of values (the same rows, byte for byte,
# besides the columns' order), and the keys' columns come in flag order.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools sweep

scenario=$work/in_step.toml
write_tiny_scenario "$scenario" wrap 48
window=(--seeds 2 --steps 20 --every 5 --measure-from 10 --backend cpu --quiet)

run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight=0,0.1,0.3 \
  --vary-with species.tiny.cohesion_weight=0.02,0,0.05 "${window[@]}" --out "$work/in_step.csv"
expect_rc 0
header=$(head -1 "$work/in_step.csv")
[[ $header == species.tiny.align_weight,species.tiny.cohesion_weight,seed,* ]] ||
  fail "the in-step sweep's header: $header"
rows=$(($(wc -l <"$work/in_step.csv") - 1))
((rows == 6)) || fail "3 pairs x 2 seeds should make 6 rows, found $rows"

# Each pair as its own sweep of one value a key.
: >"$work/pairs.csv"
for pair in 0:0.02 0.1:0 0.3:0.05; do
  run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight="${pair%%:*}" \
    --vary species.tiny.cohesion_weight="${pair##*:}" "${window[@]}" --out "$work/pair.csv"
  expect_rc 0
  tail -n +2 "$work/pair.csv" >>"$work/pairs.csv"
done
tail -n +2 "$work/in_step.csv" | cmp - "$work/pairs.csv" ||
  fail "the in-step sweep's rows differ from the pairs' own sweeps"
finish
