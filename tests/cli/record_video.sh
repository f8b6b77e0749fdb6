#!/usr/bin/env bash
# `murmur record --out clip.mp4|clip.webm`: frames piped to ffmpeg come back through ffprobe
# with the right size, count and rate (odd sizes padded to even for yuv420p); a failed or
# killed ffmpeg, or none on PATH, is exit 3 with one line and leaves no clip and no temporary.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

command -v ffprobe >/dev/null || { echo "FAIL: ffprobe not found: tools/setup installs ffmpeg" >&2; exit 1; }

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"

# "WIDTHxHEIGHT FRAMES RATE CODEC" of the clip's video stream, every frame decoded and counted.
probe() {
  ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=width,height,nb_read_frames,r_frame_rate,codec_name -of json "$1" |
    python3 -c 'import json, sys
s = json.load(sys.stdin)["streams"][0]
print("%sx%s %s %s %s" % (s["width"], s["height"], s["nb_read_frames"], s["r_frame_rate"],
                          s["codec_name"]))'
}

expect_probe() {
  local got
  got=$(probe "$1" 2>&1 || true)
  [[ $got == "$2" ]] || fail "$1: ffprobe says '$got', expected '$2'"
}

# Hidden temporaries (.clip.mp4.tmp-*) left in the clip's directory.
expect_no_temporaries() {
  local left
  left=$(find "$1" -maxdepth 1 -name '.*.tmp-*' | head -3)
  [[ -z $left ]] || fail "temporaries left behind: $left"
}

# An even size, mp4 chosen by the extension.
run_murmur record --scenario "$scenario" --frames 10 --size 32x18 --fps 12 --quiet --out "$work/even.mp4"
expect_rc 0
expect_probe "$work/even.mp4" "32x18 10 12/1 h264"

# Odd sides: yuv420p needs even ones, so one black column and row are added.
run_murmur record --scenario "$scenario" --frames 10 --size 33x17 --fps 25 --quiet --out "$work/odd.mp4"
expect_rc 0
expect_probe "$work/odd.mp4" "34x18 10 25/1 h264"

# --format wins over the extension; the default rate is 30.
run_murmur record --scenario "$scenario" --frames 10 --size 15x9 --format webm --quiet --out "$work/clip.video"
expect_rc 0
expect_probe "$work/clip.video" "16x10 10 30/1 vp9"
expect_no_temporaries "$work"

# A flipped frame would put the flock's rows upside down: the first frame's pixels match the
# PNG recording of the same run (within the lossy codec's error, measured as PSNR).
run_murmur record --scenario "$scenario" --frames 1 --size 64x36 --quiet --out "$work/png"
expect_rc 0
run_murmur record --scenario "$scenario" --frames 1 --size 64x36 --quiet --out "$work/one.mp4"
expect_rc 0
# The mean PSNR in dB of image $1 against image $2, both compared as RGB.
psnr() {
  ffmpeg -hide_banner -nostdin -i "$1" -i "$2" \
    -lavfi "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr" -f null - 2>&1 |
    sed -n 's/.*average:\([0-9.inf]*\).*/\1/p'
}
ffmpeg -hide_banner -nostdin -v error -i "$work/png/frame_000000.png" -vf vflip "$work/flipped.png"
upright=$(psnr "$work/one.mp4" "$work/png/frame_000000.png")
flipped=$(psnr "$work/one.mp4" "$work/flipped.png")
# Upright the clip must match its PNG clearly better than the flipped PNG (33 dB against 13 here).
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) + 3 else 1)" \
  "$upright" "$flipped" ||
  fail "the clip's first frame is not upright: PSNR $upright dB against the PNG, $flipped against it flipped"

# Fake ffmpegs on PATH, first in line.
fakes=$work/fakes
mkdir -p "$fakes/killed" "$fakes/failing" "$fakes/failing-at-end" "$fakes/quitting"
# Reads part of the first frame, then dies as `kill -9` would make it.
printf '#!/bin/sh\nhead -c 1000 >/dev/null\nkill -KILL $$\n' >"$fakes/killed/ffmpeg"
# Stops at once with a message, as ffmpeg does on a bad encoder setting or a full disk.
printf '#!/bin/sh\necho "fake ffmpeg: No space left on device" >&2\nexit 1\n' >"$fakes/failing/ffmpeg"
# Takes every frame, then fails as it finishes the file (e.g. writing the mp4 index).
printf '#!/bin/sh\ncat >/dev/null\necho "fake ffmpeg: error writing trailer" >&2\nexit 1\n' >"$fakes/failing-at-end/ffmpeg"
# Exits with success before taking a frame: murmur still has frames, so the clip is short.
# The frames (3 x 64 KiB) outgrow the pipe's buffer, so a write must meet the closed pipe.
printf '#!/bin/sh\nexit 0\n' >"$fakes/quitting/ffmpeg"
chmod +x "$fakes/killed/ffmpeg" "$fakes/failing/ffmpeg" "$fakes/failing-at-end/ffmpeg" \
  "$fakes/quitting/ffmpeg"

# Runs murmur with PATH set to $1 (the checks themselves keep the usual PATH).
run_murmur_with_path() {
  local search_path=$1 real_murmur=$murmur
  shift
  printf '#!/bin/bash\nPATH=%q exec %q "$@"\n' "$search_path" "$real_murmur" >"$work/murmur-with-path"
  chmod +x "$work/murmur-with-path"
  murmur=$work/murmur-with-path
  run_murmur "$@"
  murmur=$real_murmur
}

echo "an older clip" >"$work/kept.mp4"
run_murmur_with_path "$fakes/killed:$PATH" record --scenario "$scenario" --frames 10 --size 32x18 --quiet --out "$work/kept.mp4"
expect_rc 3
expect_stderr_contains "kept.mp4: ffmpeg was killed by signal 9"
[[ $(cat "$work/kept.mp4") == "an older clip" ]] || fail "a killed ffmpeg replaced the older clip"
expect_no_temporaries "$work"

run_murmur_with_path "$fakes/failing:$PATH" record --scenario "$scenario" --frames 10 --size 32x18 --quiet --out "$work/failed.mp4"
expect_rc 3
expect_stderr_contains "failed.mp4: ffmpeg failed (exit status 1): fake ffmpeg: No space left on device"
expect_no_file "$work/failed.mp4" "a failed encode"
expect_no_temporaries "$work"

run_murmur_with_path "$fakes/failing-at-end:$PATH" record --scenario "$scenario" --frames 3 --size 32x18 --quiet --out "$work/late.mp4"
expect_rc 3
expect_stderr_contains "late.mp4: ffmpeg failed (exit status 1): fake ffmpeg: error writing trailer"
expect_no_file "$work/late.mp4" "an encode that failed at the end"
expect_no_temporaries "$work"

run_murmur_with_path "$fakes/quitting:$PATH" record --scenario "$scenario" --frames 3 --size 128x128 --quiet --out "$work/short.mp4"
expect_rc 3
expect_stderr_contains "short.mp4: ffmpeg stopped reading frames (Broken pipe)"
expect_no_file "$work/short.mp4" "an ffmpeg that quit early"
expect_no_temporaries "$work"

# The clip's directory must exist: said before any simulation.
run_murmur record --scenario "$scenario" --frames 3 --size 32x18 --quiet --out "$work/missing/clip.mp4"
expect_rc 3
expect_stderr_contains "missing/clip.mp4: cannot create output file (No such file or directory)"

# No ffmpeg at all: said before any simulation, with what to do instead.
run_murmur_with_path "$work/nowhere" record --scenario "$scenario" --frames 10 --size 32x18 --quiet --out "$work/none.mp4"
expect_rc 3
expect_stderr_contains "none.mp4: cannot start ffmpeg (No such file or directory): install ffmpeg"
expect_stderr_contains "or record PNG frames instead (--format png)"
[[ $(grep -c . <<<"$err") == 2 ]] || { fail "missing ffmpeg is not one line after the seed"; describe_run; }
expect_no_file "$work/none.mp4" "a missing ffmpeg"
expect_no_temporaries "$work"

run_murmur record --scenario "$scenario" --fps 0 --out "$work/zero.mp4"
expect_usage_error "--fps"

finish
