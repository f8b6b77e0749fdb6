#!/usr/bin/env bash
# `murmur stats`: the four statistics and the population of a state file, with values a
# hand-built state fixes, and CSV rows along a run.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

value_of() { printf '%s\n' "$out" | awk -v key="$1" '$1 == key { $1 = ""; sub(/^ /, ""); print }'; }

# Four boids flying the same way in a bounded world, in two pairs 30 apart (beyond the
# perception radius of 6): polarization 1, nearest neighbour 2, two clusters, milling 0
# (the pairs sit on the line of flight through the centroid).
scenario=$work/bounded.toml
write_tiny_scenario "$scenario" bounded 4
cat >"$work/aligned.csv" <<'CSV'
id,species,x,y,vx,vy
0,0,10,20,1,0
1,0,12,20,1,0
2,0,40,20,1,0
3,0,42,20,1,0
CSV
run_murmur stats --scenario "$scenario" --in "$work/aligned.csv"
expect_rc 0
for key in count polarization milling mean_nn clusters n_tiny food; do
  [[ -n $(value_of $key) ]] || fail "stats output lacks $key"
done
[[ $(value_of count) == 4 ]] || fail "count is '$(value_of count)', expected 4"
[[ $(value_of polarization) == 1 ]] || fail "polarization is '$(value_of polarization)', expected 1"
[[ $(value_of mean_nn) == 2 ]] || fail "mean_nn is '$(value_of mean_nn)', expected 2"
[[ $(value_of clusters) == 2 ]] || fail "clusters is '$(value_of clusters)', expected 2"
[[ $(value_of milling) == 0 ]] || fail "milling is '$(value_of milling)', expected 0"
[[ $(value_of n_tiny) == 4 ]] || fail "n_tiny is '$(value_of n_tiny)', expected 4"
[[ $(value_of food) == "n/a (no [food] table)" ]] || fail "food is '$(value_of food)'"
if ((failures)); then describe_run; fi

# In a wrap world milling is not meaningful and says so.
wrap_scenario=$work/wrap.toml
write_tiny_scenario "$wrap_scenario" wrap 4
run_murmur stats --scenario "$wrap_scenario" --in "$work/aligned.csv"
expect_rc 0
[[ $(value_of milling) == "n/a (wrap world)" ]] || fail "wrap milling is '$(value_of milling)'"

# Along a run: a header, then rows at steps 0, 2, 4 (6 is past --steps 5).
run_murmur stats --scenario "$wrap_scenario" --backend cpu --steps 5 --every 2 --seed 3
expect_rc 0
expect_stderr_contains "seed 3"
expected_steps=$'step\n0\n2\n4'
[[ $(printf '%s\n' "$out" | cut -d, -f1) == "$expected_steps" ]] || {
  fail "run rows are not at steps 0, 2, 4"
  describe_run
}
expected_header=step,polarization,milling,mean_nn,clusters,n_tiny,births_tiny,deaths_tiny,food
[[ $(printf '%s\n' "$out" | head -1) == "$expected_header" ]] ||
  fail "CSV header is '$(printf '%s\n' "$out" | head -1)'"
# Milling is empty in a wrap world, and food without a [food] table; 4 boids that neither die
# nor split; the other fields are numbers.
if printf '%s\n' "$out" | tail -n +2 | grep -vqE '^[0-9]+,[0-9.e+-]+,,[0-9.e+-]+,[0-9]+,4,0,0,$'; then
  fail "a CSV row is malformed"
  describe_run
fi
stdout_csv=$out

run_murmur stats --scenario "$wrap_scenario" --backend cpu --steps 5 --every 2 --seed 3 --out "$work/run.csv"
expect_rc 0
expect_stdout_empty
[[ $(cat "$work/run.csv") == "$stdout_csv" ]] || fail "--out CSV differs from the stdout CSV"

# A species name holding a comma and a quote is one quoted header field per column (RFC 4180).
sed 's/^name = .*/name = "a,\\"b"/' "$wrap_scenario" >"$work/odd_name.toml"
run_murmur stats --scenario "$work/odd_name.toml" --backend cpu --steps 0
expect_rc 0
[[ $(printf '%s\n' "$out" | head -1) == *',"n_a,""b","births_a,""b","deaths_a,""b",food' ]] ||
  fail "odd species name header is '$(printf '%s\n' "$out" | head -1)'"

finish
