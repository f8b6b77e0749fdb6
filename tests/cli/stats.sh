#!/usr/bin/env bash
# `murmur stats`: the statistics, the collective state and the population of a state file, with
# values a hand-built state fixes, and CSV rows along a run whose state agrees with its order
# parameters (docs/model.md, "Flock statistics").
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

value_of() { printf '%s\n' "$out" | awk -v key="$1" '$1 == key { $1 = ""; sub(/^ /, ""); print }'; }

# Four boids flying the same way in a bounded world, in two pairs 30 apart (beyond the
# perception radius of 6): polarization 1, nearest neighbour 2, two clusters, milling 0
# (the pairs sit on the line of flight through the centroid), so polarized (P > 0.65, M < 0.35).
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
for key in count polarization milling state mean_nn clusters n_tiny food; do
  [[ -n $(value_of $key) ]] || fail "stats output lacks $key"
done
[[ $(value_of count) == 4 ]] || fail "count is '$(value_of count)', expected 4"
[[ $(value_of polarization) == 1 ]] || fail "polarization is '$(value_of polarization)', expected 1"
[[ $(value_of mean_nn) == 2 ]] || fail "mean_nn is '$(value_of mean_nn)', expected 2"
[[ $(value_of clusters) == 2 ]] || fail "clusters is '$(value_of clusters)', expected 2"
[[ $(value_of milling) == 0 ]] || fail "milling is '$(value_of milling)', expected 0"
[[ $(value_of state) == polarized ]] || fail "state is '$(value_of state)', expected polarized"
[[ $(value_of n_tiny) == 4 ]] || fail "n_tiny is '$(value_of n_tiny)', expected 4"
[[ $(value_of food) == "n/a (no [food] table)" ]] || fail "food is '$(value_of food)'"
if ((failures)); then describe_run; fi

# Four boids at the corners of a square flying straight away from its middle: the headings
# cancel (P = 0) and none turns about the centroid (M = 0), so a swarm.
cat >"$work/bursting.csv" <<'CSV'
id,species,x,y,vx,vy
0,0,10,10,-1,-1
1,0,20,10,1,-1
2,0,10,20,-1,1
3,0,20,20,1,1
CSV
run_murmur stats --scenario "$scenario" --in "$work/bursting.csv"
expect_rc 0
[[ $(value_of state) == swarm ]] ||
  fail "bursting square: state is '$(value_of state)', expected swarm"

# On the 60 x 40 torus the same pairs sit 30 apart, half the width: no centroid has every boid
# within a quarter of the side (15), so milling and state are not meaningful and say so.
wrap_scenario=$work/wrap.toml
write_tiny_scenario "$wrap_scenario" wrap 4
run_murmur stats --scenario "$wrap_scenario" --in "$work/aligned.csv"
expect_rc 0
for key in milling state; do
  [[ $(value_of $key) == "n/a (wrap world, flock not compact)" ]] ||
    fail "spread-out wrap $key is '$(value_of $key)'"
done

# Four boids circling the corner (0, 0) of the torus at radius 5, counter-clockwise: across both
# seams, yet compact, so the circular centroid is the corner and each boid's offset from it
# (its minimum image) is at right angles to its velocity: milling 1, state milling. The same
# ring about the middle of the world mills as much.
cat >"$work/corner_ring.csv" <<'CSV'
id,species,x,y,vx,vy
0,0,5,0,0,1
1,0,0,5,-1,0
2,0,55,0,0,-1
3,0,0,35,1,0
CSV
awk -F, 'NR == 1 { print; next } { $3 = ($3 + 30) % 60; $4 = ($4 + 20) % 40; print }' OFS=, \
  "$work/corner_ring.csv" \
  >"$work/middle_ring.csv"
close_to() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && d < 1e-6 && d > -1e-6) }'; }
for ring in corner_ring middle_ring; do
  run_murmur stats --scenario "$wrap_scenario" --in "$work/$ring.csv"
  expect_rc 0
  close_to "$(value_of milling)" 1 || fail "$ring: milling is '$(value_of milling)', expected 1"
  [[ $(value_of state) == milling ]] || fail "$ring: state is '$(value_of state)', expected milling"
  if ((failures)); then describe_run; fi
done

# Along a run: a header, then rows at steps 0, 2, 4 (6 is past --steps 5).
run_murmur stats --scenario "$wrap_scenario" --backend cpu --steps 5 --every 2 --seed 3
expect_rc 0
expect_stderr_contains "seed 3"
expected_steps=$'step\n0\n2\n4'
[[ $(printf '%s\n' "$out" | cut -d, -f1) == "$expected_steps" ]] || {
  fail "run rows are not at steps 0, 2, 4"
  describe_run
}
expected_header=step,polarization,milling,state,mean_nn,clusters,n_tiny,births_tiny,deaths_tiny,food
[[ $(printf '%s\n' "$out" | head -1) == "$expected_header" ]] ||
  fail "CSV header is '$(printf '%s\n' "$out" | head -1)'"
# Milling and state are empty together or hold a number and a word; food is empty without a
# [food] table; 4 boids that neither die nor split; the other fields are numbers.
row_pattern='^[0-9]+,[0-9.e+-]+,([0-9.e+-]+,[a-z]+|,),[0-9.e+-]+,[0-9]+,4,0,0,$'
if printf '%s\n' "$out" | tail -n +2 | grep -vqE "$row_pattern"; then
  fail "a CSV row is malformed"
  describe_run
fi
stdout_csv=$out

# Each row's state is Tunstrom et al.'s classification of its own polarization and milling.
state_mismatches() {
  printf '%s\n' "$1" | awk -F, 'NR > 1 {
    p = $2; m = $3
    if (m == "") expected = ""
    else if (p > 0.65 && m < 0.35) expected = "polarized"
    else if (m > 0.65 && p < 0.35) expected = "milling"
    else if (p < 0.35 && m < 0.35) expected = "swarm"
    else expected = "transition"
    if ($4 != expected) print "step " $1 ": P " p ", M " m ", state \"" $4 "\", expected \"" expected "\""
  }'
}
mismatches=$(state_mismatches "$out")
[[ -z $mismatches ]] || fail "wrap run: $mismatches"
# In walls milling always has a value, so every row has a state.
run_murmur stats --scenario "$scenario" --backend cpu --steps 40 --every 4 --seed 3 --quiet
expect_rc 0
mismatches=$(state_mismatches "$out")
[[ -z $mismatches ]] || fail "bounded run: $mismatches"
if printf '%s\n' "$out" | tail -n +2 | awk -F, '$4 == "" { found = 1 } END { exit !found }'; then
  fail "a bounded run's row has no state"
  describe_run
fi

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
