#!/usr/bin/env bash
# `murmur compare --envelope-runs R` makes the free run's drift envelope of R one-ulp-perturbed
# CPU runs (docs/harness.md, "Free runs"): the table says how many, and since run v starts the
# same whatever R is, the envelope of more runs is the largest over more of them: at least as
# wide at every sample, and wider at one. A bad R is a usage error naming the flag and [1, 16].
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario" wrap 200
few_runs=1
many_runs=6

# The envelope column of each drift sample, one a line.
envelopes() { sed -n 's/^ *step *[0-9]*: gpu-cpu [^ ]*  envelope \([^ ]*\)  limit .*/\1/p' <<<"$1"; }

run_murmur compare --scenario "$scenario" --steps 60 --samples 6 --lockstep 0 --quiet \
  --envelope-runs $few_runs
expect_rc 0
expect_stdout_contains "(limit = 2 x CPU 1-ulp envelope of 1 run)"
few_out=$out
run_murmur compare --scenario "$scenario" --steps 60 --samples 6 --lockstep 0 --quiet \
  --envelope-runs $many_runs
expect_rc 0
expect_stdout_contains "(limit = 2 x CPU 1-ulp envelope of $many_runs runs)"
many_out=$out

mapfile -t few < <(envelopes "$few_out")
mapfile -t many < <(envelopes "$many_out")
if ((${#few[@]} == 0 || ${#few[@]} != ${#many[@]})); then
  fail "drift samples: ${#few[@]} with $few_runs run, ${#many[@]} with $many_runs"
else
  wider=0
  for i in "${!few[@]}"; do
    if awk -v a="${few[i]}" -v b="${many[i]}" 'BEGIN { exit !(b < a) }'; then
      fail "sample $i: the envelope of $many_runs runs (${many[i]}) is narrower than of $few_runs (${few[i]})"
    elif awk -v a="${few[i]}" -v b="${many[i]}" 'BEGIN { exit !(b > a) }'; then
      wider=$((wider + 1))
    fi
  done
  ((wider > 0)) || fail "the envelope of $many_runs runs is nowhere wider than of $few_runs: ${many[*]}"
fi

for bad in 0 17 -1 2.5 three; do
  run_murmur compare --scenario "$scenario" --steps 10 --envelope-runs "$bad"
  expect_usage_error "--envelope-runs" "[1, 16]" "'$bad'"
done

finish
