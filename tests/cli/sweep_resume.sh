#!/usr/bin/env bash
# `murmur sweep` killed and resumed: a sweep killed (SIGKILL) after some runs keeps them in its
# journal, leaves no CSV and no job running, and --resume completes it to the bytes of a sweep
# that was never killed; a resume whose flags or scenario differ from the journal's, a journal
# left in the way, and a resume without a journal are each one line and exit 2.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/resume.toml
write_tiny_scenario "$scenario" wrap 48
# Runs long enough (about 0.2 s each on the CPU) that the kill lands with runs still to make.
sweep=(sweep --scenario "$scenario" --vary species.tiny.align_weight=0:0.1:6 --seeds 2
       --steps 3000 --every 100 --measure-from 1000 --backend cpu)
rows_in() {
  local rows
  rows=$(grep -c '^[0-9]' "$1" 2>/dev/null) || true
  echo "${rows:-0}"
}

run_murmur "${sweep[@]}" --out "$work/whole.csv" --quiet
expect_rc 0
[[ $(wc -l <"$work/whole.csv") == 13 ]] || fail "the uninterrupted sweep has not 12 rows"

# Killed once the journal holds two runs, two jobs at a time.
csv=$work/killed.csv  # not $out, which run_murmur sets
"$murmur" "${sweep[@]}" --out "$csv" --jobs 2 --quiet 2>"$work/killed.err" &
pid=$!
until (($(rows_in "$csv.partial") >= 2)) || ! kill -0 $pid 2>/dev/null; do sleep 0.02; done
kill -KILL $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
kept=$(rows_in "$csv.partial")
((kept >= 2 && kept < 12)) || fail "the kill kept $kept runs, not some of the 12"
expect_no_file "$csv" "a killed sweep's CSV"
sleep 0.2  # the jobs die with their sweep (PR_SET_PDEATHSIG), a moment after it
if ps -eo args | grep -F -- "sweep_job --scenario $scenario" | grep -qv grep; then
  fail "a job outlived its killed sweep"
fi
# A kill in the middle of a line leaves part of one: no row, and cut off by the resume.
printf '11,0.5,4' >>"$csv.partial"
cp "$csv.partial" "$work/journal.before"

# A resume with other flags, or another scenario, is refused and leaves the journal as it was.
run_murmur "${sweep[@]/3000/2999}" --out "$csv" --resume
expect_usage_error "--resume: $csv.partial was begun by another sweep: it has '--steps 3000'" \
  "where this one has '--steps 2999'"
cp "$scenario" "$work/scenario.kept"
echo "# an edit" >>"$scenario"
run_murmur "${sweep[@]}" --out "$csv" --resume
expect_usage_error "--resume: $csv.partial was begun by another sweep: it has 'scenario file FNV-1a 64"
cp "$work/scenario.kept" "$scenario"
# Without --resume, the journal is in the way.
run_murmur "${sweep[@]}" --out "$csv"
expect_usage_error "--out $csv: $csv.partial holds an unfinished sweep: --resume completes it"
expect_same_file "$csv.partial" "$work/journal.before" "the journal after refused resumes"
expect_no_file "$csv" "a refused sweep's CSV"

# The resume makes the other runs only, and writes the bytes of the uninterrupted sweep.
run_murmur "${sweep[@]}" --out "$csv" --resume
expect_rc 0
expect_stderr_contains "murmur sweep: resuming: $kept of 12 runs are in $csv.partial"
expect_stderr_contains "murmur sweep: $((12 - kept))/$((12 - kept)) runs (100%)"
expect_same_file "$csv" "$work/whole.csv" "a killed and resumed sweep against an uninterrupted one"
expect_no_file "$csv.partial" "a completed sweep's journal"

run_murmur "${sweep[@]}" --out "$csv" --resume
expect_usage_error "--resume: there is no $csv.partial to complete"

finish
