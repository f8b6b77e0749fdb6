#!/usr/bin/env bash
# docs/science.md's tools: tools/science reads the page's commands (each sweep names a scenario
# that exists and writes under out/science/), and tools/plot-sweep draws a small sweep's
# summary as a PNG, refusing a column the sweep does not have in one line with exit 2.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

listed=$("$source_dir/tools/science" --list)
sweeps=$(grep -c '^murmur sweep ' <<<"$listed" || true)
plots=$(grep -c '^tools/plot-sweep ' <<<"$listed" || true)
((sweeps >= 8 && plots >= 6)) || fail "tools/science --list: $sweeps sweeps and $plots plots"
while read -r scenario; do
  [[ -f $source_dir/$scenario ]] || fail "docs/science.md sweeps $scenario, which does not exist"
done < <(grep -o -- '--scenario [^ ]*' <<<"$listed" | cut -d' ' -f2)

run_murmur sweep --scenario "$source_dir/scenarios/science/vicsek-N40.toml" \
  --vary species.particles.noise=0.5,4 --seeds 2 --steps 40 --every 10 --measure-from 20 \
  --backend cpu --quiet --out "$work/sweep.csv"
[[ $rc -eq 0 ]] || { fail "the small sweep exited $rc"; describe_run; }

plot=$source_dir/tools/plot-sweep
set +e
"$plot" "$work/plot.png" "$work/sweep.csv:small" --x species.particles.noise \
  --y polarization_mean --reference "0.5,0.99 4,0.2:paper" >"$work/plot_out" 2>&1
plot_rc=$?
set -e
((plot_rc == 0)) || fail "tools/plot-sweep exited $plot_rc: $(cat "$work/plot_out")"
[[ $(head -c 8 "$work/plot.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
  fail "tools/plot-sweep wrote no PNG"

set +e
"$plot" "$work/bad.png" "$work/sweep.csv" --x species.particles.noise --y no_such_mean \
  >"$work/bad_out" 2>&1
bad_rc=$?
set -e
((bad_rc == 2)) || fail "a missing column: exit $bad_rc, expected 2"
[[ $(wc -l <"$work/bad_out") -eq 1 && $(cat "$work/bad_out") == *"no column 'no_such_mean'"* ]] ||
  fail "a missing column: '$(cat "$work/bad_out")'"
[[ ! -e $work/bad.png ]] || fail "a missing column still wrote a picture"

finish
