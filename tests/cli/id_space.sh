#!/usr/bin/env bash
# Ids that stay unique (docs/model.md, "Ids that stay unique"): from a state file whose ids
# sit near 2^32 - 1, a step whose births would take next_id past it stops the run with exit 2
# and one line naming the step, on every backend alike, and writes nothing; the steps before
# it run, and births that take next_id exactly to 2^32 - 1 are born.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

# Every sheep has the energy to split in step 1 (19 - 1 >= 16) and none after, without food.
scenario=$work/sheep.toml
cat >"$scenario" <<TOML
[world]
width = 60.0
height = 40.0
seed = 42
capacity = 200

[[species]]
name = "sheep"
count = 48
topology = "wrap"
perception_radius = 6.0
separation_radius = 2.0
align_weight = 0.05
cohesion_weight = 0.01
separation_weight = 0.5
max_force = 0.1
min_speed = 0.5
max_speed = 1.5
energy_max = 20.0
energy_initial = 19.0
energy_per_step = 1.0
reproduce_energy = 16.0
TOML
last_id=4294967295
backends=(cpu gpu gpu-naive)
why="ids are 32-bit and never reused while alive (docs/model.md, \"Ids that stay unique\"); start from a state with smaller ids"

run_murmur step --scenario "$scenario" --backend cpu --steps 0 --seed 7 --out "$work/start.csv"
expect_rc 0

# The start with id k renamed FIRST + k (its next_id: FIRST + 48).
shifted() {
  awk -F, -v OFS=, -v first="$1" 'NR == 1 { print; next } { $1 = sprintf("%.0f", $1 + first); print }' \
    "$work/start.csv" >"$2"
}

# Room for 19 children, and 48 want one in step 1.
shifted $((last_id - 20 - 47)) "$work/top.csv"
for backend in "${backends[@]}"; do
  run_murmur step --scenario "$scenario" --backend $backend --in "$work/top.csv" --steps 3 --quiet \
    --out "$work/top-$backend.csv"
  expect_usage_error "murmur step: step 1: 48 births would take next_id from 4294967276 to 4294967324, past $last_id: $why"
  expect_no_file "$work/top-$backend.csv" "--backend $backend: a refused step"
done

# Room for exactly 48: the last child is 2^32 - 2 and next_id ends at 2^32 - 1; the run goes on.
shifted $((last_id - 48 - 48)) "$work/room.csv"
for backend in "${backends[@]}"; do
  run_murmur step --scenario "$scenario" --backend $backend --in "$work/room.csv" --steps 3 --quiet \
    --out "$work/room-$backend.csv"
  expect_rc 0
  [[ $(wc -l <"$work/room-$backend.csv") == 97 ]] || fail "--backend $backend: not 96 boids after the births"
  [[ $(tail -1 "$work/room-$backend.csv") == $((last_id - 1)),* ]] ||
    fail "--backend $backend: the last child is not $((last_id - 1))"
done

# A file that holds 2^32 - 1 itself has no id left for a child.
awk -F, -v OFS=, -v last=$last_id 'NR == 49 { $1 = last } { print }' "$work/start.csv" >"$work/last.csv"
for backend in "${backends[@]}"; do
  run_murmur step --scenario "$scenario" --backend $backend --in "$work/last.csv" --steps 1 --quiet \
    --out "$work/last-$backend.csv"
  expect_usage_error "step 1: 48 births would take next_id from $last_id to 4294967343"
done

# Later births: with room for 12 children a step (capacity 60), 12 sheep are born in step 1,
# 12 old ones die in step 2 (max_age 10, age 8), and 12 more would be born in step 3. The ids
# allow the first 12 only.
later=$work/later.toml
sed -e 's/^capacity = 200/capacity = 60/' -e 's/^reproduce_energy = 16.0/&\nmax_age = 10/' \
  "$scenario" >"$later"
awk -F, -v OFS=, -v first=$((last_id - 20 - 47)) \
  'NR == 1 { print; next } { if ($1 < 12) $7 = 8; $1 = sprintf("%.0f", $1 + first); print }' \
  "$work/start.csv" >"$work/ageing.csv"
for backend in "${backends[@]}"; do
  run_murmur step --scenario "$later" --backend $backend --in "$work/ageing.csv" --steps 6 --quiet \
    --out "$work/later-$backend.csv"
  expect_usage_error "murmur step: step 3: 12 births would take next_id from 4294967288 to 4294967300, past $last_id: $why"
  expect_no_file "$work/later-$backend.csv" "--backend $backend: a run with a refused step"
  # The steps before it are the model's: they run and write their state.
  run_murmur step --scenario "$later" --backend $backend --in "$work/ageing.csv" --steps 2 --quiet \
    --out "$work/before-$backend.csv"
  expect_rc 0
  [[ $(wc -l <"$work/before-$backend.csv") == 49 ]] || fail "--backend $backend: not 48 boids after 2 steps"
done

finish
