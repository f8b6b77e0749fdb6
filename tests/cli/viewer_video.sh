#!/usr/bin/env bash
# The viewer's V with --record-format mp4: real key presses (xdotool) under a virtual X server
# start and stop a clip, which ffprobe reads back at the window's size (odd sides padded to
# even for yuv420p) and the --record-fps rate, with no temporary left beside it.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

require_tools viewer_video xvfb-run xdotool ffprobe

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
captures=$work/captures
mkdir -p "$captures"

cat >"$work/drive.bash" <<'DRIVE'
set -u
murmur=$1 scenario=$2 captures=$3 log=$4
# --frames is only a safety net: Esc must end the run long before it.
"$murmur" view --scenario "$scenario" --size 641x361 --out-dir "$captures" --frames 100000 \
  --record-format mp4 --record-fps 15 >"$log.stdout" 2>"$log.stderr" &
viewer=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name '^murmur' | head -n 1)
sleep 1
xdotool key --window "$window" v
sleep 2
xdotool key --window "$window" v
sleep 1
xdotool key --window "$window" Escape
wait $viewer
echo "exit status: $?"
DRIVE

set +e
xvfb-run -a -s "-screen 0 1280x720x24" bash "$work/drive.bash" "$murmur" "$scenario" "$captures" "$work/viewer" \
  >"$work/drive.out" 2>&1
set -e
out=$(cat "$work/drive.out")
err=$(cat "$work/viewer.stderr" 2>/dev/null || true)
last_command="xvfb-run bash drive.bash (murmur view --record-format mp4, V pressed twice)"
rc=0
[[ $out == *"exit status: 0"* ]] || { fail "the viewer did not exit with status 0"; describe_run; }

clip=$captures/recording_000000.mp4
if [[ ! -f $clip ]]; then
  fail "V left no $clip"
  ls -a "$captures" >&2
  describe_run
else
  stream=$(ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=width,height,r_frame_rate,nb_read_frames -of default=nw=1 "$clip")
  for expected in width=642 height=362 r_frame_rate=15/1; do
    [[ $stream == *"$expected"* ]] || fail "$clip: ffprobe lacks $expected: $stream"
  done
  frames=$(sed -n 's/^nb_read_frames=//p' <<<"$stream")
  ((frames >= 1)) || fail "$clip holds no frames: $stream"
fi
left=$(find "$captures" -name '.*.tmp-*' | head -3)
[[ -z $left ]] || fail "temporaries left behind: $left"

finish
