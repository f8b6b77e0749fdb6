#!/usr/bin/env bash
# One count (docs/viewer.md, "One count"): the viewer's window title shows the live boids of
# each species at the step it shows, the same numbers `murmur stats` gives for that scenario,
# seed and step, with the panel shown and hidden. Driven by real events (xdotool) under a virtual
# X server at the default window size: Space pauses, N steps, H hides the panel; each count is
# read back from the title, which shows what the status line and the panel show (one
# LiveCounts, src/viewer/live_counts.hpp).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools viewer_counts xvfb-run xdotool

# Grazers and hunters whose every event is decided alike on every backend
# (tests/data/ecosystem_events.toml says how), so the viewer's GPU flock and `murmur stats`
# count the same boids at every step.
scenario=$source_dir/tests/data/ecosystem_events.toml
start_total=56  # 48 grazers and 8 hunters at the start
# Skipped before the first frame: births and deaths have changed the count by then.
skip=12
# Slow enough that Space lands a few steps after the first frame, while both species live.
step_rate=5

cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 log=$3 skip=$4 rate=$5
"$murmur" view --scenario "$scenario" --skip "$skip" --step-rate "$rate" --frames 100000 \
  >"$log.stdout" 2>"$log.stderr" &
viewer=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
title() { sleep 1.5; xdotool getwindowname "$window"; }  # the title refreshes twice a second
xdotool key --window "$window" space
echo "paused: $(title)"
for _ in 1 2 3; do xdotool key --window "$window" n; sleep 0.3; done
echo "after three N: $(title)"
xdotool key --window "$window" h
for _ in 1 2; do xdotool key --window "$window" n; sleep 0.3; done
echo "hidden, after two N: $(title)"
xdotool key --window "$window" Escape
wait $viewer
echo "exit status: $?"
DRIVE

set +e
xvfb-run -a -s "-screen 0 1280x720x24" bash "$work/drive.bash" "$murmur" "$scenario" \
  "$work/viewer" "$skip" "$step_rate" >"$work/drive.out" 2>&1
set -e
titles=$(cat "$work/drive.out")
err=$(cat "$work/viewer.stderr" 2>/dev/null || true)

line() { grep "^$1: " <<<"$titles" | head -n 1 | sed "s/^$1: //"; }
step_of() { sed -n 's/.* - step \([0-9]*\).*/\1/p' <<<"$(line "$1")"; }
# "- 52 boids (grazer 45, hunter 7)": the total, then each species' count.
total_of() { sed -n 's/.* - \([0-9]*\) boids.*/\1/p' <<<"$(line "$1")"; }
count_of() { sed -n "s/.* boids (.*\b$2 \([0-9]*\).*/\1/p" <<<"$(line "$1")"; }
column_of() { head -1 <<<"$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }

for label in "paused" "after three N" "hidden, after two N"; do
  title=$(line "$label")
  step=$(step_of "$label")
  if [[ -z $step ]]; then
    fail "$label: no step in the title '$title'"
    continue
  fi
  # Paused, the counts come back of the step shown: the title names no other step.
  [[ $title != *" at step "* ]] || fail "$label: the counts are not of step $step: '$title'"
  run_murmur stats --scenario "$scenario" --backend gpu --steps "$step" --every "$step" --quiet
  expect_rc 0
  row=$(tail -1 <<<"$out")
  [[ ${row%%,*} == "$step" ]] || { fail "$label: murmur stats gave no row for step $step"; continue; }
  expected_total=0
  for species in grazer hunter; do
    expected=$(cut -d, -f"$(column_of "$out" "n_$species")" <<<"$row")
    expected_total=$((expected_total + expected))
    shown=$(count_of "$label" "$species")
    [[ $shown == "$expected" ]] ||
      fail "$label: step $step shows $species ${shown:-nothing}, murmur stats counts $expected"
  done
  shown_total=$(total_of "$label")
  [[ $shown_total == "$expected_total" ]] ||
    fail "$label: step $step shows ${shown_total:-no} boids, murmur stats counts $expected_total"
  # Were the count still the starting one, a title showing the scenario's count would pass.
  ((expected_total != start_total)) ||
    fail "$label: step $step still has the $start_total boids of the start: nothing is tested"
done
# N steps while paused (how many, two presses in one slow frame may blur: viewer_keys.sh counts).
(($(step_of "after three N") > $(step_of paused))) || fail "N did not step the paused flock"
(($(step_of "hidden, after two N") > $(step_of "after three N"))) ||
  fail "N did not step the paused flock with the panel hidden"
[[ $(line "hidden, after two N") == *"panel hidden"* ]] || fail "H did not hide the panel"
[[ $(line "exit status") == 0 ]] || fail "Esc did not quit with status 0: $err"
echo "$titles"
finish
