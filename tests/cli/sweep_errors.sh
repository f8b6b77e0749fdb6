#!/usr/bin/env bash
# `murmur sweep`'s refusals: each is one line naming the flag (and for --vary the key and what
# it accepts), exit 2, before any run, leaving neither a CSV nor a journal behind.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/errors.toml
write_tiny_scenario "$scenario" wrap 48
csv=$work/sweep.csv
window=(--steps 20 --every 5 --measure-from 10 --backend cpu)

refused() { # expected texts... ; the sweep's words are in $words
  run_murmur sweep "${words[@]}"
  expect_usage_error "$@"
  expect_no_file "$csv" "a refused sweep's CSV"
  expect_no_file "$csv.partial" "a refused sweep's journal"
}

words=(--scenario "$scenario" --vary species.tiny.align_weight=1:2 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary must be KEY=FROM:TO:COUNT (COUNT in [2, 100000]) or KEY=V1,V2,..., got" \
  "(see murmur sweep --help)"
words=(--scenario "$scenario" --vary species.tiny.align_weight=0,0.1 --seeds 0 "${window[@]}" --out "$csv")
refused "--seeds must be a count N in [1, 1000000] or a list S1,S2,... of distinct seeds"
words=(--scenario "$scenario" --seeds 2 "${window[@]}" --out "$csv")
refused "missing --vary KEY=SPEC"
words=(--scenario "$scenario" --vary species.tiny.align_weight=0,0.1 --seeds 2 "${window[@]}" --out "$work/sweep.txt")
refused "--out must end in .csv, got"

words=(--scenario "$scenario" --vary species.tiny.align_weight=0,0.1 --vary-with species.tiny.cohesion_weight=0,0.1,0.2 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary-with species.tiny.cohesion_weight=0,0.1,0.2: 3 values, but the --vary it moves in step with (species.tiny.align_weight) has 2: give as many"
words=(--scenario "$scenario" --vary species.tiny.align_weight=0,0.1 --vary-with species.tiny.align_weight=0,0.1 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary-with species.tiny.align_weight=0,0.1: species.tiny.align_weight is varied twice: give its values once"

# The keys and values meet the scenario as a file's would.
words=(--scenario "$scenario" --vary species.tiny.align_weightt=0,0.1 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary species.tiny.align_weightt=0: species[0] (tiny).align_weightt: unknown key: did you mean \"align_weight\"? (every key: docs/scenarios.md)"
words=(--scenario "$scenario" --vary species.tiny.perception_radius=5:25:3 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary species.tiny.perception_radius=25: species[0] (tiny).perception_radius = 25: must be > 0 and < 20 (half the smaller world side)"
words=(--scenario "$scenario" --vary species.tiny.count=10,20.5 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary species.tiny.count=20.5: species[0] (tiny).count = 20.5: must be an integer, found a float"
words=(--scenario "$scenario" --vary species.tiny.topology=wrap,round --seeds 2 "${window[@]}" --out "$csv")
refused "--vary species.tiny.topology=round: species[0] (tiny).topology = \"round\": must be \"wrap\" or \"bounded\""
words=(--scenario "$scenario" --vary species.birds.count=10 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary species.birds.count=10: \"species.birds.count\": no species named \"birds\" (the scenario's: \"tiny\")"
words=(--scenario "$scenario" --vary world.seed=1,2 --seeds 2 "${window[@]}" --out "$csv")
refused "--vary world.seed=1,2: a run's seed is --seeds'"

# The window and the seeds.
words=(--scenario "$scenario" --vary species.tiny.align_weight=0,0.1 --seeds 2 --steps 20 --every 5 --measure-from 21 --out "$csv")
refused "--measure-from 21: no sample in the window from there to --steps 20"
sed 's/^seed = .*/seed = 9223372036854775807/' "$scenario" >"$work/last_seed.toml"
words=(--scenario "$work/last_seed.toml" --vary species.tiny.align_weight=0,0.1 --seeds 2 "${window[@]}" --out "$csv")
refused "--seeds 2: the seeds from the scenario's 9223372036854775807 would pass the largest"

# A plan has no flock to sweep.
words=(--scenario "$source_dir/scenarios/floor-plan.toml" --vary world.width=800 --seeds 1 "${window[@]}" --out "$csv")
refused "a plan scenario ([plan]) has no flock to start"

# An --out that cannot be written fails before any run, with exit 3.
run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight=0,0.1 --seeds 2 \
  "${window[@]}" --out "$work/no/such/dir/sweep.csv"
expect_rc 3
expect_stderr_contains "cannot write --out $work/no/such/dir/sweep.csv: directory"

# sweep_job is murmur's own: not in --help.
run_murmur --help
[[ $out != *sweep_job* ]] || fail "murmur --help lists sweep_job"

finish
