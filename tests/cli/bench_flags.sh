#!/usr/bin/env bash
# murmur bench's flags do what they say (docs/commands.md, "murmur bench"): --max-cpu leaves the
# CPU backend's cells empty above N and fills them at and below it; --ecosystem times the
# ecosystem's step against the same flock without its ecosystem keys, one row a size, its ratio
# the quotient of the two times. Columns are read by their header's names.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

# cell SIZE COLUMN: the cell of the row for SIZE under the header cell COLUMN, spaces trimmed.
cell() {
  printf '%s\n' "$out" | awk -F'|' -v n="$1" -v name="$2" '
    /^\| N \|/ { for (i = 2; i < NF; i++) { h = $i; gsub(/ /, "", h); column[h] = i }; next }
    $2 + 0 == n && (name in column) { v = $(column[name]); gsub(/ /, "", v); print v; exit }'
}

run_murmur bench --sizes 64,128 --backends grid,cpu --max-cpu 100 --steps 1 --warmup 0 --quiet
expect_rc 0
[[ $(cell 64 "cpums/step") =~ ^[0-9.]+$ ]] || fail "--max-cpu 100: no cpu time at 64 boids: $(cell 64 "cpums/step")"
[[ $(cell 128 "cpums/step") == "—" ]] || fail "--max-cpu 100: the cpu ran at 128 boids: $(cell 128 "cpums/step")"
[[ $(cell 128 "gridms/step") =~ ^[0-9.]+$ ]] || fail "--max-cpu 100: the grid skipped 128 boids"

run_murmur bench --ecosystem --sizes 128,256 --steps 2 --warmup 1 --quiet
expect_rc 0
[[ $out == *"ecosystem step against the plain flock step"* ]] || fail "--ecosystem: not the ecosystem's table"
for n in 128 256; do
  plain=$(cell $n "plainms/step") ecosystem=$(cell $n "ecosystemms/step") ratio=$(cell $n "ecosystem/plain")
  [[ $plain =~ ^[0-9.]+$ && $ecosystem =~ ^[0-9.]+$ && $ratio =~ ^[0-9.]+$ ]] ||
    { fail "--ecosystem: row $n lacks its times: $plain $ecosystem $ratio"; continue; }
  # The printed times are rounded to 3 significant digits: the quotient agrees within 1%.
  awk -v p="$plain" -v e="$ecosystem" -v r="$ratio" 'BEGIN { q = e / p; exit !(r > 0.99 * q && r < 1.01 * q) }' ||
    fail "--ecosystem at $n: ratio $ratio is not $ecosystem / $plain"
done
[[ $(printf '%s\n' "$out" | grep -c '^| [0-9]') == 2 ]] || fail "--ecosystem: not one row a size"

finish
