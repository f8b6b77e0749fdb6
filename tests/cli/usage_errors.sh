#!/usr/bin/env bash
# Bad command lines exit 2 with one line on stderr naming the flag (and the accepted range),
# before any scenario is read or any GL context is made.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
out_csv=$work/after.csv

run_murmur record --framez 10
expect_usage_error "murmur record: unknown flag --framez: did you mean --frames?" "(see murmur record --help)"
run_murmur frobnicate
expect_usage_error "unknown command frobnicate (see murmur --help)"
run_murmur stpe --scenario "$scenario"
expect_usage_error "unknown command stpe: did you mean step?"
# A hidden command (a sweep's job, one edit from this) is never suggested.
run_murmur sweep_jb
expect_usage_error "unknown command sweep_jb (see murmur --help)"
run_murmur --frobnicate
expect_usage_error "unknown flag --frobnicate"
run_murmur step stray-word
expect_usage_error "unexpected argument 'stray-word'"
run_murmur step -x
expect_usage_error "murmur step: unknown flag -x"

run_murmur step --scenario "$scenario" --steps -1 --out "$out_csv"
expect_usage_error "--steps" "[0, 4294967295]" "'-1'"
run_murmur step --scenario "$scenario" --steps=1.5 --out "$out_csv"
expect_usage_error "--steps" "[0, 4294967295]" "'1.5'"
run_murmur step --scenario "$scenario" --steps 4294967296 --out "$out_csv"
expect_usage_error "--steps" "[0, 4294967295]"
run_murmur step --scenario "$scenario" --out "$out_csv" --steps
expect_usage_error "murmur step: --steps has no value: it needs N (see murmur step --help)"
# A flag followed by another flag: its missing value is named, not the words after it.
run_murmur step --scenario "$scenario" --steps --out "$out_csv"
expect_usage_error "murmur step: --steps has no value: it needs N (see murmur step --help)"
run_murmur record --scenario --out "$work/frames" --frames 1
expect_usage_error "murmur record: --scenario has no value: it needs FILE"
run_murmur step --scenario "$scenario" --out "$out_csv"
expect_usage_error "missing --steps"
# A misspelt flag is named, not the missing flag that it was meant to be.
run_murmur step --scenario "$scenario" --out "$out_csv" --stepz 1
expect_usage_error "unknown flag --stepz"
run_murmur step --scenario "$scenario" --steps 1 --steps 2 --out "$out_csv"
expect_usage_error "--steps given twice"
run_murmur step --scenario "$scenario" --steps 1 --backend quantum --out "$out_csv"
expect_usage_error "--backend" "gpu, gpu-naive, cpu" "'quantum'"
run_murmur step --scenario "$scenario" --steps 1 --seed=-3 --out "$out_csv"
expect_usage_error "--seed" "[0, 9223372036854775807]"
run_murmur step --scenario "$scenario" --steps 1 --out "$work/after.txt"
expect_usage_error "--out" ".csv or .npy"

run_murmur record --scenario "$scenario" --out "$work/frames" --frames 0
expect_usage_error "--frames" "[1, 4294967295]" "'0'"
run_murmur record --scenario "$scenario" --out "$work/frames" --steps-per-frame 0
expect_usage_error "--steps-per-frame" "[1, 4294967295]"
run_murmur record --scenario "$scenario" --out "$work/frames" --skip -1
expect_usage_error "--skip" "[0, 4294967295]"
run_murmur record --scenario "$scenario" --out "$work/frames" --quiet=yes
expect_usage_error "--quiet takes no value"
run_murmur record --scenario "$scenario" --out "$work/frames" --frames 1 --size 8x8 --quiet --quiet
expect_usage_error "--quiet given twice"
for size in 0x10 10x0 abc 10x 10x10x10 16385x8; do
  run_murmur record --scenario "$scenario" --out "$work/frames" --size "$size"
  expect_usage_error "--size" "WIDTHxHEIGHT" "[1, 16384]" "'$size'"
done
expect_no_file "$work/frames" "record with a bad flag"

run_murmur stats --scenario "$scenario"
expect_usage_error "exactly one of --in and --steps"
run_murmur stats --scenario "$scenario" --steps 4 --every 0
expect_usage_error "--every" "[1, 4294967295]"
run_murmur stats --scenario "$scenario" --in "$work/state.csv" --every 2
expect_usage_error "--every applies only with --steps"
run_murmur stats --scenario "$scenario" --in "$work/state.csv" --steps 4
expect_usage_error "exactly one of --in and --steps"

run_murmur view --scenario "$scenario" --steps-per-frame 2 --step-rate 30
expect_usage_error "--steps-per-frame and --step-rate exclude each other"
run_murmur view --scenario "$scenario" --screenshot "$work/shot.png"
expect_usage_error "--screenshot applies only with --frames"

run_murmur bench --sizes 1000,abc
expect_usage_error "--sizes" "[64, 16777216]" "'abc'"
run_murmur bench --sizes 8
expect_usage_error "--sizes" "[64, 16777216]" "'8'"
run_murmur bench --backends grid,warp
expect_usage_error "--backends" "grid, naive, cpu" "'warp'"
run_murmur bench --steps 0
expect_usage_error "--steps" "[1, 100000]"

# A scenario error is also exit 2 and names the file.
run_murmur step --scenario "$work/missing.toml" --steps 1 --out "$out_csv"
expect_rc 2
expect_stderr_contains "missing.toml"
expect_no_file "$out_csv" "step with a missing scenario"

finish
