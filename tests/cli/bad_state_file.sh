#!/usr/bin/env bash
# A state file that does not fit the scenario is bad input (exit 2, naming the file), and no
# output file appears: step writes only after a successful run.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario" wrap 3
out_csv=$work/after.csv

cat >"$work/good.csv" <<'CSV'
id,species,x,y,vx,vy
0,0,10,10,1,0
1,0,12,10,1,0
2,0,14,10,1,0
CSV
run_murmur step --scenario "$scenario" --backend cpu --in "$work/good.csv" --steps 1 --out "$out_csv"
expect_rc 0
[[ -f $out_csv ]] || fail "a valid state file gave no output"
rm -f "$out_csv"

# Species 1 does not exist in a one-species scenario.
sed 's/^1,0,/1,1,/' "$work/good.csv" >"$work/bad_species.csv"
run_murmur step --scenario "$scenario" --backend cpu --in "$work/bad_species.csv" --steps 1 --out "$out_csv"
expect_rc 2
expect_stderr_contains "bad_species.csv"
expect_no_file "$out_csv" "bad species index"

printf 'id,species,x,y,vx,vy\n0,0,10,10,1,0\n1,0,banana,10,1,0\n2,0,14,10,1,0\n' >"$work/not_a_number.csv"
run_murmur step --scenario "$scenario" --backend cpu --in "$work/not_a_number.csv" --steps 1 --out "$out_csv"
expect_rc 2
expect_stderr_contains "not_a_number.csv"
expect_no_file "$out_csv" "malformed number"

run_murmur step --scenario "$scenario" --backend cpu --in "$work/absent.csv" --steps 1 --out "$out_csv"
expect_rc 2
expect_stderr_contains "absent.csv"
expect_no_file "$out_csv" "missing --in file"

run_murmur stats --scenario "$scenario" --in "$work/bad_species.csv"
expect_rc 2
expect_stderr_contains "bad_species.csv"

finish
