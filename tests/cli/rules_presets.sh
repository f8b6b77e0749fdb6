#!/usr/bin/env bash
# The presets of the rules of motion (docs/model.md, "Rules of motion") and of topological
# neighbours: `murmur compare` holds the GPU to the CPU reference on each, and each shows the state it is named for: the
# Couzin school mills (state `milling` in murmur stats, its milling above 0.65) and the Vicsek
# gas near its transition orders only partly (polarization between 0.2 and 0.9 after 2,000
# steps, against about 0.05 at noise 3).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenarios=$source_dir/scenarios
run_murmur compare --scenario "$scenarios/couzin-mill.toml" --steps 200 --lockstep 5 --quiet
[[ $rc -eq 0 && $out == *"overall: PASS"* ]] || { fail "couzin-mill: murmur compare did not pass"; describe_run; }
# The Vicsek gas is large: a short free run keeps the CPU envelope runs quick.
run_murmur compare --scenario "$scenarios/vicsek.toml" --steps 20 --samples 2 --envelope-runs 2 --lockstep 2 --quiet
[[ $rc -eq 0 && $out == *"overall: PASS"* ]] || { fail "vicsek: murmur compare did not pass"; describe_run; }

run_murmur compare --scenario "$scenarios/starlings-topological.toml" --steps 20 --samples 2 --envelope-runs 2 --lockstep 2 --quiet
[[ $rc -eq 0 && $out == *"overall: PASS"* ]] || { fail "starlings-topological: murmur compare did not pass"; describe_run; }

run_murmur stats --scenario "$scenarios/couzin-mill.toml" --steps 1500 --every 500 --backend cpu --quiet
if [[ $rc -ne 0 ]]; then
  fail "couzin-mill: murmur stats exited $rc"
  describe_run
else
  # The last row: step 1500. Columns by name, from the header.
  last=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                  $1 == 1500 { print $col["milling"], $col["state"] }' <<<"$out")
  read -r milling state <<<"$last"
  [[ $state == milling ]] || fail "couzin-mill: state at step 1500 is '$state', not milling"
  awk -v m="$milling" 'BEGIN { exit !(m > 0.65) }' || fail "couzin-mill: milling $milling <= 0.65"
fi

run_murmur stats --scenario "$scenarios/vicsek.toml" --steps 2000 --every 2000 --quiet
if [[ $rc -ne 0 ]]; then
  fail "vicsek: murmur stats exited $rc"
  describe_run
else
  polarization=$(awk -F, '$1 == 2000 { print $2 }' <<<"$out")
  awk -v p="$polarization" 'BEGIN { exit !(p > 0.2 && p < 0.9) }' ||
    fail "vicsek: polarization $polarization after 2000 steps, not between 0.2 and 0.9"
fi

finish
