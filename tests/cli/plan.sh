#!/usr/bin/env bash
# `murmur plan`: origin 003's floor plan exported as SVG, DXF, PNG and CSV. The SVG and the DXF
# (read by ezdxf, a second reader) hold the same polylines; the PNG is ink on paper at the size
# asked; the CSV has its columns; the same seed gives the same bytes, on the CPU and the GPU;
# bad flags, flock scenarios and unwritable outputs are one-line errors.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

# ezdxf comes from Debian (python3-ezdxf), so Debian's interpreter has it where a python3
# earlier on the PATH may not.
dxf_python=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import ezdxf' 2>/dev/null; then
    dxf_python=$candidate
    break
  fi
done
if [[ -z $dxf_python ]]; then
  echo "plan.sh: no python3 can import ezdxf (tools/setup installs python3-ezdxf)" >&2
  exit 1
fi
plan_tool() { "$dxf_python" "$source_dir/tests/cli/plan_tool.py" "$@"; }
palette() { python3 "$source_dir/tests/cli/png_tool.py" palette "$1"; }

scenario=$source_dir/scenarios/floor-plan.toml
steps=120

for format in svg dxf png csv; do
  run_murmur plan --scenario "$scenario" --steps $steps --out "$work/plan.$format" --quiet
  expect_rc 0
  expect_stdout_empty
  [[ $err == "seed 3" ]] || { fail "plan .$format: stderr is not just the seed"; describe_run; }
done

# The SVG and the DXF: the same polylines (world coordinates, layer = width), and a DXF that
# ezdxf audits without errors.
svg_lines=$(plan_tool svg "$work/plan.svg")
dxf_lines=$(plan_tool dxf "$work/plan.dxf")
[[ $(head -1 <<<"$dxf_lines") == "audit errors 0" ]] || fail "ezdxf: $(head -1 <<<"$dxf_lines")"
[[ $(tail -n +2 <<<"$dxf_lines") == "$svg_lines" ]] || {
  fail "the DXF's polylines differ from the SVG's"
  diff <(tail -n +2 <<<"$dxf_lines") <(printf '%s\n' "$svg_lines") | head -5 >&2 || true
}
(($(wc -l <<<"$svg_lines") > 20)) || fail "the plan has only $(wc -l <<<"$svg_lines") polylines"
# Origin 003's two widths, and nothing else.
[[ $(cut -d: -f1 <<<"$svg_lines" | sort -u | tr '\n' ' ') == "width-1 width-2 " ]] ||
  fail "polyline widths are $(cut -d: -f1 <<<"$svg_lines" | sort -u | tr '\n' ' ')"
grep -q 'width="800" height="800" viewBox="0 0 800 800"' "$work/plan.svg" ||
  fail "the SVG is not the 800 x 800 canvas"

# The CSV: its header, 9 columns (the last, parent, empty without branching), the 20 agents,
# steps 1..N, alive 0 or 1, a row per agent per step it moved (so at most 20 per step, and 20
# at step 1).
csv=$work/plan.csv
[[ $(head -1 "$csv") == "agent,step,x,y,drawn_x,drawn_y,turns,alive,parent" ]] ||
  fail "CSV header is '$(head -1 "$csv")'"
bad_rows=$(tail -n +2 "$csv" | awk -F, -v steps=$steps '
  NF != 9 || $1 !~ /^[0-9]+$/ || $1 >= 20 || $2 < 1 || $2 > steps || $7 !~ /^[0-9]+$/ ||
  ($8 != 0 && $8 != 1) || $9 != "" { bad++ } END { print bad + 0 }')
[[ $bad_rows == 0 ]] || fail "$bad_rows CSV rows are malformed"
[[ $(awk -F, '$2 == 1' "$csv" | wc -l) == 20 ]] || fail "step 1 does not have 20 rows"
[[ $(tail -n +2 "$csv" | cut -d, -f1,2 | sort | uniq -d | wc -l) == 0 ]] ||
  fail "an agent has two rows at one step"
# An agent that died has alive = 0 on its last row and no row after it.
[[ $(awk -F, 'NR > 1 && dead[$1] { late++ } NR > 1 && $8 == 0 { dead[$1] = 1 }
             END { print late + 0 }' "$csv") == 0 ]] || fail "a dead agent has rows after its death"

# The PNG: the world's size by default, any size with --size, only ink and paper.
png_palette=$(palette "$work/plan.png")
[[ $(head -1 <<<"$png_palette") == 800x800 ]] || fail "default PNG is $(head -1 <<<"$png_palette")"
[[ $(tail -n +2 <<<"$png_palette" | cut -d' ' -f1 | tr '\n' ' ') == "0,0,0,255 255,255,255,255 " ]] ||
  fail "PNG colours are not ink and paper: $(tail -n +2 <<<"$png_palette" | tr '\n' ' ')"
run_murmur plan --scenario "$scenario" --steps $steps --out "$work/small.png" --size 300x200 --quiet
expect_rc 0
small_palette=$(palette "$work/small.png")
[[ $(head -1 <<<"$small_palette") == 300x200 ]] || fail "--size 300x200 gave $(head -1 <<<"$small_palette")"
[[ $(tail -n +2 <<<"$small_palette" | wc -l) == 2 ]] || fail "the small PNG is not two colours"
# --format names the format whatever the extension.
run_murmur plan --scenario "$scenario" --steps $steps --out "$work/plan.txt" --format csv --quiet
expect_rc 0
expect_same_file "$work/plan.csv" "$work/plan.txt" "--format csv"

# The same seed gives the same bytes; another seed another plan.
for format in svg dxf png csv; do
  run_murmur plan --scenario "$scenario" --steps $steps --out "$work/again.$format" --quiet
  expect_rc 0
  expect_same_file "$work/plan.$format" "$work/again.$format" "same seed, .$format"
done
run_murmur plan --scenario "$scenario" --steps $steps --out "$work/other.svg" --seed 4 --quiet
expect_rc 0
expect_stderr_contains "seed 4"
expect_different_file "$work/plan.svg" "$work/other.svg" "seeds 3 and 4"

# The GPU gives the same files, byte for byte.
for format in svg dxf png csv; do
  run_murmur plan --scenario "$scenario" --steps $steps --out "$work/gpu.$format" --backend gpu \
    --quiet
  expect_rc 0
  expect_same_file "$work/plan.$format" "$work/gpu.$format" "--backend gpu, .$format"
done

# Bad flags: one line each, exit 2, nothing written.
run_murmur plan --scenario "$scenario" --steps 4000000000 --out "$work/bad.svg" --backend gpu
expect_usage_error "--steps 4000000000 with 20 agents" "on the GPU holds fewer"
run_murmur plan --scenario "$scenario" --steps 5 --out "$work/bad.pdf"
expect_usage_error "--out" ".svg, .dxf, .png or .csv"
run_murmur plan --scenario "$scenario" --steps 5 --out "$work/bad.svg" --size 100x100
expect_usage_error "--size" "PNG"
run_murmur plan --scenario "$scenario" --steps 5 --out "$work/bad.png" --size 0x100
expect_usage_error "--size"
run_murmur plan --scenario "$scenario" --steps 5 --out "$work/bad.png" --format pdf
expect_usage_error "--format"
run_murmur plan --scenario "$scenario" --out "$work/bad.svg"
expect_usage_error "--steps"
for name in bad.svg bad.pdf bad.png; do expect_no_file "$work/$name" "a refused run"; done

# A world too large for one pixel per unit needs --size for a PNG.
cat >"$work/wide.toml" <<'TOML'
[world]
width = 20000
height = 800

[plan]
TOML
run_murmur plan --scenario "$work/wide.toml" --steps 5 --out "$work/wide.png"
expect_usage_error "wide.toml: the world's 20000 x 800 is too large for one PNG" "--size"
run_murmur plan --scenario "$work/wide.toml" --steps 5 --out "$work/wide.png" --size 500x20 --quiet
expect_rc 0
[[ $(palette "$work/wide.png" | head -1) == 500x20 ]] || fail "the wide world's PNG is not 500x20"

# A flock scenario is not a plan, and a plan is not a flock: each command says which to use.
flock=$work/flock.toml
write_tiny_scenario "$flock"
run_murmur plan --scenario "$flock" --steps 5 --out "$work/flock.svg"
expect_usage_error "$flock" "no [plan] table"
run_murmur soak --scenario "$scenario" --steps 1 --backend cpu
expect_usage_error "a plan scenario" "murmur plan"
run_murmur bench --scenario "$scenario" --sizes 100
expect_usage_error "a plan scenario" "murmur plan"
run_murmur view --scenario "$scenario" --in "$work/state.csv"
expect_usage_error "--in" "[[plan.group]]"

# An output directory that does not exist fails before the run, with exit 3.
run_murmur plan --scenario "$scenario" --steps 5 --out "$work/missing/plan.dxf" --quiet
expect_rc 3
expect_stderr_contains "--out"
expect_no_file "$work/missing" "an unwritable output"

finish
