#!/usr/bin/env bash
# tools/plot-population: a PNG of the size it promises from `murmur stats` CSV, with and without
# a food column; one line and exit 2 for input that is not murmur stats CSV, exit 3 for an
# output it cannot write, and no file left behind by a failed plot.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools plot_population gnuplot

plot=$source_dir/tools/plot-population

# Runs the script; sets $rc, $out and $err like run_murmur.
run_plot() {
  set +e
  "$plot" "$@" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
  last_command="tools/plot-population $*"
}

# A PNG starts with its 8-byte signature; the IHDR chunk's width and height follow at byte 16.
png_signature() { od -An -tx1 -N8 "$1" | tr -d ' \n'; }
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*2^24 + $2*2^16 + $3*2^8 + $4 "x" $5*2^24 + $6*2^16 + $7*2^8 + $8 }'; }
expect_png() {
  if [[ ! -s $1 ]]; then
    fail "$1 was not written"
    return
  fi
  [[ $(png_signature "$1") == 89504e470d0a1a0a ]] || fail "$1 is not a PNG"
  [[ $(png_size "$1") == 1200x600 ]] || fail "$1 is $(png_size "$1"), expected 1200x600"
}

scenario=$work/tiny.toml
write_tiny_scenario "$scenario" wrap 48
run_murmur stats --scenario "$scenario" --backend cpu --steps 20 --every 5 --out "$work/plain.csv"
expect_rc 0

# Without a [food] table the food column is empty: the plot is the counts alone.
run_plot "$work/plain.csv" "$work/plain.png" "tiny flock"
expect_rc 0
expect_stdout_empty
expect_stderr_empty
expect_png "$work/plain.png"

# A food column with values (written by hand: the script reads any murmur stats CSV).
cat >"$work/food.csv" <<'CSV'
step,polarization,milling,state,mean_nn,clusters,n_grass,births_grass,deaths_grass,n_wolf,births_wolf,deaths_wolf,food
0,0.1,0.05,swarm,3,4,100,0,0,10,0,0,500
10,0.1,,,3,4,120,25,5,11,1,0,420.5
20,0.7,0.1,polarized,3,4,90,0,30,14,3,0,610.25
CSV
run_plot "$work/food.csv" "$work/food.png"
expect_rc 0
expect_png "$work/food.png"
expect_different_file "$work/plain.png" "$work/food.png" "plots of different runs"

# Bad input: one line naming the file, exit 2, and nothing written.
printf 'a,b\n1,2\n' >"$work/other.csv"
for bad in "$work/missing.csv" "$work/other.csv"; do
  run_plot "$bad" "$work/bad.png"
  expect_usage_error "$bad"
  expect_no_file "$work/bad.png" "plot of $bad"
done
head -1 "$work/food.csv" >"$work/header_only.csv"
run_plot "$work/header_only.csv" "$work/bad.png"
expect_usage_error "$work/header_only.csv" "no rows"
run_plot "$work/food.csv"
expect_usage_error "usage: tools/plot-population"
run_plot "$work/food.csv" "$work/plot.svg"
expect_usage_error "$work/plot.svg" ".png"

# An output directory that does not exist: exit 3, one line naming the path.
run_plot "$work/food.csv" "$work/no/such/dir/plot.png"
expect_rc 3
expect_stderr_contains "$work/no/such/dir/plot.png"
[[ $err != *$'\n'* ]] || fail "more than one line on stderr for an unwritable output"
# No partial file is left beside a plot, successful or not.
leftovers=$(find "$work" -name '.*.tmp-*' | wc -l)
((leftovers == 0)) || fail "$leftovers temporary plot file(s) left behind"

finish
