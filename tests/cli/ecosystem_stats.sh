#!/usr/bin/env bash
# `murmur stats` on an ecosystem (docs/model.md, "An ecosystem"): the per-species columns and
# food exist; on every backend each row's count is the previous row's plus its births minus its
# deaths (checked here with awk, independently of murmur), with events of every kind in the run;
# and cpu, gpu and gpu-naive report the same populations and food row for row. `--in` prints
# the per-species counts and the food field's total.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

# Grazers and hunters whose every event is decided alike on every backend (the file says how).
scenario=$source_dir/tests/data/ecosystem_events.toml

steps=60
every=4
species=(grazer hunter)

# Column numbers by name, from the header (murmur quotes no field here: plain names). The text
# goes to head through a here-string, not a printf into a pipe: head exits after one line, and
# a writer still writing then dies of SIGPIPE, which pipefail turns into a silent set -e exit.
column_of() { head -1 <<<"$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }

for backend in cpu gpu gpu-naive; do
  run_murmur stats --scenario "$scenario" --backend $backend --steps $steps --every $every
  expect_rc 0
  csv=$out
  printf '%s\n' "$csv" >"$work/$backend.csv"
  header=$(head -1 <<<"$csv")
  for s in "${species[@]}"; do
    for column in n_$s births_$s deaths_$s; do
      [[ -n $(column_of "$csv" $column) ]] || fail "$backend: no column $column in '$header'"
    done
  done
  [[ $header == *,food ]] || fail "$backend: food is not the last column of '$header'"
  ((failures == 0)) || break

  food=$(column_of "$csv" food)
  for s in "${species[@]}"; do
    n=$(column_of "$csv" n_$s)
    births=$(column_of "$csv" births_$s)
    deaths=$(column_of "$csv" deaths_$s)
    # n_t = n_{t-1} + births_t - deaths_t on every row after the first; no events on the first.
    ledger=$(printf '%s\n' "$csv" | awk -F, -v n=$n -v b=$births -v d=$deaths '
      NR == 2 && ($b != 0 || $d != 0) { print "row 1 has events: " $0; bad = 1 }
      NR > 2 && $n != previous + $b - $d {
        print "step " $1 ": " $n " != " previous " + " $b " - " $d; bad = 1
      }
      NR > 1 { previous = $n; total_births += $b; total_deaths += $d }
      END { if (!bad) print "ok " total_births " " total_deaths }')
    if [[ $ledger != ok* ]]; then
      fail "$backend: $s counts do not add up: $(head -3 <<<"$ledger")"
      continue
    fi
    read -r _ total_births total_deaths <<<"$ledger"
    # A run without events would make the check above vacuous.
    ((total_births > 0)) || fail "$backend: no $s was born in $steps steps"
    ((total_deaths > 0)) || fail "$backend: no $s died in $steps steps"
  done
  # The field is eaten down and regrows: the total changes, and stays within [0, K_f * cells].
  printf '%s\n' "$csv" | awk -F, -v f=$food 'NR > 1 && ($f == "" || $f < 0 || $f > 8 * 24) { bad = 1 }
    NR == 2 { first = $f } NR > 2 && $f != first { changed = 1 }
    END { exit bad || !changed }' || fail "$backend: food is empty, out of range or never changes"
done

# The backends decide every event alike (docs/model.md, "Agreement and reproducibility"), so
# the populations, births, deaths and food agree row for row; the flock statistics are left
# out, since those are sums whose rounding the backends may order differently.
population_columns() {
  local header columns=1 name
  header=$(head -1 "$1")
  for name in "${species[@]/#/n_}" "${species[@]/#/births_}" "${species[@]/#/deaths_}" food; do
    columns+=,$(column_of "$header" "$name")
  done
  cut -d, -f"$columns" "$1"
}
if ((failures == 0)); then
  population_columns "$work/cpu.csv" >"$work/cpu.population"
  for backend in gpu gpu-naive; do
    population_columns "$work/$backend.csv" >"$work/$backend.population"
    expect_same_file "$work/cpu.population" "$work/$backend.population" \
      "populations and food, cpu and $backend"
  done
fi

# --in: the counts per species of a state file and the scenario's initial food field.
run_murmur step --scenario "$scenario" --backend cpu --steps 0 --out "$work/start.csv"
expect_rc 0
run_murmur stats --scenario "$scenario" --in "$work/start.csv"
expect_rc 0
value_of() { printf '%s\n' "$out" | awk -v key="$1" '$1 == key { print $2 }'; }
[[ $(value_of n_grazer) == 48 ]] || fail "--in: n_grazer is '$(value_of n_grazer)', expected 48"
[[ $(value_of n_hunter) == 8 ]] || fail "--in: n_hunter is '$(value_of n_hunter)', expected 8"
# 6 x 4 cells of 0.5 * 8 food each.
[[ $(value_of food) == 96 ]] || fail "--in: food is '$(value_of food)', expected 96"
if ((failures)); then describe_run; fi

finish
