#!/usr/bin/env bash
# `murmur stats` on a plan scenario (docs/model.md, "Plan statistics"): rows that keep the
# counting rules (living rises only by births, living + deaths = agents, each step saves one
# point per agent alive at its start, the ink only grows), the same bytes on the CPU and the
# GPU, and one-line errors for what does not apply to a plan.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools plan_stats python3

check() { python3 "$source_dir/tests/cli/plan_stats_check.py" "$@"; }
origin_plan=$source_dir/scenarios/floor-plan.toml

# Origin 003's preset, a row every step, past the last death (step 208).
for backend in cpu gpu; do
  run_murmur stats --scenario "$origin_plan" --steps 250 --backend $backend --quiet
  expect_rc 0
  expect_stderr_contains "seed 3"
  printf '%s\n' "$out" >"$work/every1-$backend.csv"
done
expect_same_file "$work/every1-cpu.csv" "$work/every1-gpu.csv" "plan stats on cpu and gpu"
check "$work/every1-cpu.csv" 20 1 || fail "the rows of floor-plan.toml break the counting rules"
last=$(tail -1 "$work/every1-cpu.csv")
[[ $last == 250,0,* ]] || fail "not every agent of floor-plan.toml is dead at step 250: $last"
# Some agents died of a near path, and the plan holds ink of both pens.
IFS=, read -r _ _ _ _ close _ length horizontal vertical <<<"$last"
[[ $close -gt 0 ]] || fail "no agent of floor-plan.toml died too close: $last"
python3 -c "import sys; sys.exit(not ($horizontal > 100 and $vertical > 100 and $length > 1000))" ||
  fail "floor-plan.toml drew too little ink: $last"

# --every K, to a file: the rows at steps 0, 7, ..., 245, the same on both backends, and the
# same as every 7th row of the run above.
for backend in cpu gpu; do
  run_murmur stats --scenario "$origin_plan" --steps 250 --every 7 --backend $backend \
    --out "$work/every7-$backend.csv" --quiet
  expect_rc 0
  expect_stdout_empty
done
expect_same_file "$work/every7-cpu.csv" "$work/every7-gpu.csv" "plan stats --every 7"
check "$work/every7-cpu.csv" 20 7 || fail "the rows every 7 steps break the counting rules"
awk -F, 'NR == 1 || ($1 % 7 == 0)' "$work/every1-cpu.csv" >"$work/every1-by7.csv"
expect_same_file "$work/every7-cpu.csv" "$work/every1-by7.csv" "every 7th row of --every 1"
[[ $(tail -1 "$work/every7-cpu.csv" | cut -d, -f1) == 245 ]] || fail "the last row is not step 245"

# Many agents whose paths meet, on both backends: the same bytes.
crowd=$work/crowd.toml
printf '[world]\nwidth = 800\nheight = 800\nseed = 11\n\n[plan]\n' >"$crowd"
for x in 100 350 600; do
  for y in 100 350 600; do
    printf '[[plan.group]]\ncount = 40\nx = %s\ny = %s\nwidth = 100\nheight = 100\n' \
      $x $y >>"$crowd"
  done
done
for backend in cpu gpu; do
  run_murmur stats --scenario "$crowd" --steps 120 --every 3 --backend $backend --quiet
  expect_rc 0
  printf '%s\n' "$out" >"$work/crowd-$backend.csv"
done
expect_same_file "$work/crowd-cpu.csv" "$work/crowd-gpu.csv" "a crowd's plan stats"
check "$work/crowd-cpu.csv" 360 3 || fail "the crowd's rows break the counting rules"
run_murmur stats --scenario "$crowd" --steps 120 --every 3 --backend cpu --seed 12 --quiet
expect_different_file "$work/crowd-cpu.csv" <(printf '%s\n' "$out") "another seed"

# Branching (docs/model.md, "Branching"): agents and births rise together, living by at most
# the births, and the counting rules still hold; the same bytes on the GPU; record draws it;
# compare refuses it in one line.
branching=$work/branching.toml
printf '[world]\nwidth = 800\nheight = 800\nseed = 3\n\n[plan]\nbranch_chance = 0.05\n' \
  >"$branching"
printf 'branch_coverage = 0.1\nmax_agents = 150\n' >>"$branching"
run_murmur stats --scenario "$branching" --steps 200 --backend cpu --quiet \
  --out "$work/branching.csv"
expect_rc 0
check "$work/branching.csv" 20 1 || fail "a branching plan's rows break the counting rules"
IFS=, read -r _ _ _ _ _ _ _ _ _ agents births _ coverage <<<"$(tail -1 "$work/branching.csv")"
[[ $births -gt 20 && $agents -eq $((20 + births)) ]] ||
  fail "floor-plan.toml with branching had $births births and $agents agents"
python3 -c "import sys; sys.exit(not 0.05 < $coverage <= 1)" ||
  fail "a branching plan's coverage is $coverage"
run_murmur stats --scenario "$branching" --steps 200 --backend gpu --quiet \
  --out "$work/branching-gpu.csv"
expect_rc 0
expect_same_file "$work/branching.csv" "$work/branching-gpu.csv" \
  "branching plan stats on cpu and gpu"
# The harness follows the births on both sides: bit-identical on llvmpipe.
run_murmur compare --scenario "$branching" --steps 200
expect_rc 0
expect_stdout_contains "bit-identical"
expect_stdout_contains "agents cpu $agents gpu $agents"
run_murmur record --scenario "$branching" --frames 2 --skip 100 --size 64x64 --quiet \
  --out "$work/branching-frames"
expect_rc 0
[[ -f $work/branching-frames/frame_000001.png ]] || fail "no frame of a branching recording"
# `murmur plan` draws it, the same bytes twice and on both backends.
run_murmur plan --scenario "$branching" --steps 120 --backend cpu --quiet --out "$work/b1.svg"
expect_rc 0
run_murmur plan --scenario "$branching" --steps 120 --backend cpu --quiet --out "$work/b2.svg"
expect_same_file "$work/b1.svg" "$work/b2.svg" "a branching plan's SVG, run twice"
run_murmur plan --scenario "$branching" --steps 120 --backend gpu --quiet --out "$work/b3.svg"
expect_rc 0
expect_same_file "$work/b1.svg" "$work/b3.svg" "a branching plan's SVG on cpu and gpu"
# Its CSV names each child's parent, a start's agent (id < 20) or an earlier child.
run_murmur plan --scenario "$branching" --steps 120 --backend cpu --quiet --out "$work/b.csv"
expect_rc 0
bad_children=$(tail -n +2 "$work/b.csv" | awk -F, '
  ($1 < 20 && $9 != "") || ($1 >= 20 && ($9 == "" || $9 >= $1)) { bad++ }
  $1 >= 20 { children++ } END { print (children > 0 ? bad + 0 : "none") }')
[[ $bad_children == 0 ]] || fail "a branching plan's CSV parents: $bad_children bad rows"

# What does not apply to a plan: one line, exit 2, no file.
printf 'id,species,x,y,vx,vy\n0,0,1,1,1,0\n' >"$work/state.csv"
run_murmur stats --scenario "$origin_plan" --in "$work/state.csv"
expect_usage_error "--in" "a plan scenario"
run_murmur stats --scenario "$origin_plan" --steps 5 --backend gpu-naive --out "$work/naive.csv"
expect_usage_error "--backend" "cpu or gpu"
expect_no_file "$work/naive.csv" "a refused plan stats run"
run_murmur stats --scenario "$origin_plan" --steps 5 --every 0
expect_usage_error "--every"

finish
