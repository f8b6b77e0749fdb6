#!/usr/bin/env bash
# The shipped ecosystems keep their promises (docs/ecosystem.md), in a cheap version on fixed
# seeds with the CPU reference: scenarios/ecosystem.toml keeps both species alive, with the
# hunters' numbers lagging the grazers' (the cross-correlation of the two counts peaks at a
# positive lag); scenarios/ecosystem-crash.toml booms, then both species die out, the hunters
# peaking after the grazers. The full claim (20,000 steps, seeds 1 to 10) is in the docs.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

coexistence_seeds=(1 2 3)
coexistence_steps=6000
crash_steps=1500
every=20
# The start (150 grazers, 12 hunters, a full field) is far from the cycle: its first swing is
# left out of the lag measurement.
transient_steps=1000
# Lags up to here are searched (in rows of $every steps): beyond any half period seen.
max_lag_rows=40

# Column numbers by name, from the CSV's header.
column_of() { head -1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }

# True when CSV has a row every $every steps from 0 to STEPS: a run that wrote nothing, or
# stopped early, must fail the checks below rather than skip them.
complete_csv() {  # complete_csv CSV STEPS
  local rows last_step
  rows=$(($(wc -l <"$1") - 1))
  last_step=$(tail -1 "$1" | cut -d, -f1)
  ((rows == $2 / every + 1)) && [[ $last_step == "$2" ]]
}

# Prints the lag, in steps, at which the correlation of n_grazers(t) with n_hunters(t + lag)
# is largest, over lags -max..max, both series taken after the transient with their means
# removed. Positive: the hunters follow the grazers.
hunter_lag() {
  awk -F, -v g=$(column_of "$1" n_grazers) -v h=$(column_of "$1" n_hunters) \
    -v skip=$transient_steps -v max=$max_lag_rows '
    NR > 1 && $1 >= skip { n++; step[n] = $1; gs[n] = $g; hs[n] = $h; gm += $g; hm += $h }
    END {
      gm /= n; hm /= n
      for (lag = -max; lag <= max; lag++) {
        c = 0; pairs = 0
        for (t = 1; t <= n; t++) {
          if (t + lag < 1 || t + lag > n) continue
          c += (gs[t] - gm) * (hs[t + lag] - hm); pairs++
        }
        c /= pairs
        if (lag == -max || c > best) { best = c; best_lag = lag }
      }
      print best_lag * (step[2] - step[1])
    }' "$1"
}

for seed in "${coexistence_seeds[@]}"; do
  csv=$work/ecosystem-$seed.csv
  run_murmur stats --scenario "$source_dir/scenarios/ecosystem.toml" --backend cpu --seed "$seed" \
    --steps $coexistence_steps --every $every --out "$csv"
  expect_rc 0
  complete_csv "$csv" $coexistence_steps ||
    { fail "ecosystem seed $seed: $csv lacks rows to step $coexistence_steps"; continue; }
  last=$(tail -1 "$csv")
  grazers=$(cut -d, -f"$(column_of "$csv" n_grazers)" <<<"$last")
  hunters=$(cut -d, -f"$(column_of "$csv" n_hunters)" <<<"$last")
  ((grazers > 0 && hunters > 0)) ||
    fail "ecosystem seed $seed: at step $coexistence_steps grazers $grazers, hunters $hunters"
  lag=$(hunter_lag "$csv")
  ((lag > 0)) || fail "ecosystem seed $seed: the hunters do not lag the grazers (best lag $lag)"
  echo "ecosystem seed $seed: step $coexistence_steps grazers $grazers hunters $hunters, lag $lag"
done

csv=$work/crash.csv
run_murmur stats --scenario "$source_dir/scenarios/ecosystem-crash.toml" --backend cpu \
  --steps $crash_steps --every $every --out "$csv"
expect_rc 0
if ! complete_csv "$csv" $crash_steps; then
  fail "crash: $csv lacks rows to step $crash_steps"
else
  # Prints: start grazers, peak grazers and its step, peak hunters and its step, last counts.
  read -r start g_peak g_step h_peak h_step g_last h_last < <(
    awk -F, -v g=$(column_of "$csv" n_grazers) -v h=$(column_of "$csv" n_hunters) '
      NR == 2 { start = $g }
      NR > 1 && $g > gp { gp = $g; gs = $1 }
      NR > 1 && $h > hp { hp = $h; hs = $1 }
      NR > 1 { gl = $g; hl = $h }
      END { print start, gp, gs, hp, hs, gl, hl }' "$csv")
  echo "crash: grazers $start -> peak $g_peak at $g_step; hunters peak $h_peak at $h_step;" \
    "last $g_last / $h_last"
  ((g_peak > start)) || fail "crash: no boom (grazers start at $start and peak at $g_peak)"
  ((h_step > g_step)) || fail "crash: the hunters peak at step $h_step, not after the grazers ($g_step)"
  ((g_last == 0 && h_last == 0)) ||
    fail "crash: no bust by step $crash_steps (grazers $g_last, hunters $h_last)"
fi

finish
