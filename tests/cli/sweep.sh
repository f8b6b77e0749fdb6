#!/usr/bin/env bash
# `murmur sweep` against `murmur stats`: each row's summary is the window of the stats rows of
# the same scenario, values and seed (tests/cli/sweep_check.py computes it), on the CPU and on
# the GPU; rows in run order (the first --vary outermost, the seeds innermost); replicates that
# differ by seed; the same bytes with one job or two at a time.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools sweep python3

# Bounded, so that milling has values; a max_age, so that deaths fall inside and before the
# window; a food field, constant without grazers.
scenario=$work/sweep.toml
write_tiny_scenario "$scenario" bounded 48
cat >>"$scenario" <<'TOML'
max_age = 200

[food]
cell_size = 10
TOML
steps=40 every=5 measure_from=12

# The scenario with one run's values, as a file.
scenario_of() { # align_weight height out
  sed -e "s/^align_weight = .*/align_weight = $1/" -e "s/^height = .*/height = $2/" \
    "$scenario" >"$3"
}

# Each row of a sweep's CSV against murmur stats of its run. The keys are align_weight and, when
# two are given, world.height (else the scenario's 40).
check_rows_against_stats() { # backend sweep_csv keys...
  local backend=$1 csv=$2 run=0 line align height seed
  local -a cells
  shift 2
  while IFS= read -r line; do
    IFS=, read -r -a cells <<<"$line"
    align=${cells[0]}
    if (($# == 2)); then height=${cells[1]} seed=${cells[2]}; else height=40 seed=${cells[1]}; fi
    scenario_of "$align" "$height" "$work/run.toml"
    run_murmur stats --scenario "$work/run.toml" --seed "$seed" --steps $steps --every $every \
      --backend "$backend" --out "$work/stats.csv" --quiet
    expect_rc 0
    python3 "$source_dir/tests/cli/sweep_check.py" "$csv" $run "$work/stats.csv" $measure_from \
      "$@" || fail "$backend run $run ($align, $height, seed $seed) differs from murmur stats"
    run=$((run + 1))
  done < <(tail -n +2 "$csv")
}

# --- CPU: two keys, a descending list and a range, two seeds ---------------------------------
run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight=0.1,0 \
  --vary world.height=40:30:2 --seeds 2 --steps $steps --every $every \
  --measure-from $measure_from --backend cpu --out "$work/cpu.csv"
expect_rc 0
expect_stdout_empty
expect_stderr_contains "murmur sweep: 8/8 runs (100%)"
expect_no_file "$work/cpu.csv.partial" "a finished sweep's journal"
expected_runs=$'0.1,40,42\n0.1,40,43\n0.1,30,42\n0.1,30,43\n0,40,42\n0,40,43\n0,30,42\n0,30,43'
[[ $(tail -n +2 "$work/cpu.csv" | cut -d, -f1-3) == "$expected_runs" ]] || {
  fail "the runs are not in run order"
  cut -d, -f1-3 "$work/cpu.csv" >&2
}
check_rows_against_stats cpu "$work/cpu.csv" species.tiny.align_weight world.height

# Replicates differ by seed: every pair of seeds of one combination has two polarizations.
polarizations=$(tail -n +2 "$work/cpu.csv" | cut -d, -f4)
paired=$(paste -d' ' <(sed -n 'p;n' <<<"$polarizations") <(sed -n 'n;p' <<<"$polarizations"))
if awk '$1 == $2 { found = 1 } END { exit !found }' <<<"$paired"; then
  fail "two seeds of one combination gave the same polarization_mean: $paired"
fi

# --- GPU: one key, a list of seeds; the same rows with one job or two at a time ------------------
for jobs in 1 2; do
  run_murmur sweep --scenario "$scenario" --vary species.tiny.align_weight=0.1,0 --seeds 7,3 \
    --steps $steps --every $every --measure-from $measure_from --backend gpu --jobs $jobs \
    --out "$work/gpu$jobs.csv" --quiet
  expect_rc 0
  expect_stderr_empty
done
expect_same_file "$work/gpu1.csv" "$work/gpu2.csv" "--jobs 1 and --jobs 2"
[[ $(tail -n +2 "$work/gpu1.csv" | cut -d, -f1-2) == $'0.1,7\n0.1,3\n0,7\n0,3' ]] ||
  fail "the GPU runs are not in run order with --seeds 7,3"
check_rows_against_stats gpu "$work/gpu1.csv" species.tiny.align_weight

finish
