#!/usr/bin/env bash
# A disk that fills mid-recording (a 24 KiB tmpfs): `murmur record` to mp4, webm and PNG frames
# exits 3 with one line naming the file and the cause, and leaves nothing that looks complete:
# no clip under its final name, no temporary, and a frame directory without its manifest.
# Mounting needs root (CI runs as root); where it fails the test fails with the reason, unless
# MURMUR_SKIP_DISK_FAULT_TESTS=1 asks to skip it: printed, and exit 77, which ctest reports as
# skipped (docs/reliability.md).
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/tiny.toml
write_tiny_scenario "$scenario"
disk=$work/disk
mkdir -p "$disk"
# Small enough that every format fills it within the 120 frames, large enough for the first
# PNG frame (about 12 KiB at this size).
disk_size=24k
if ! reason=$(mount -t tmpfs -o size=$disk_size tmpfs "$disk" 2>&1); then
  if [[ ${MURMUR_SKIP_DISK_FAULT_TESTS:-} == 1 ]]; then
    echo "SKIPPED: full-disk recording test: cannot mount a tmpfs ($reason);" \
      "MURMUR_SKIP_DISK_FAULT_TESTS=1 asked to skip it" >&2
    exit 77
  fi
  fail "full-disk recording test: cannot mount a tmpfs ($reason); run as root, or set" \
    "MURMUR_SKIP_DISK_FAULT_TESTS=1 to skip the disk-fault tests"
  finish
fi
trap 'umount "$disk" 2>/dev/null; rm -rf "$work"' EXIT

# Exactly one line on stderr after the seed line.
expect_one_error_line() {
  if [[ $(grep -vc '^seed ' <<<"$err") != 1 ]]; then
    fail "$1: not one line of error"
    describe_run
  fi
}

for clip in clip.mp4 clip.webm; do
  run_murmur record --scenario "$scenario" --frames 120 --size 160x90 --quiet --out "$disk/$clip"
  expect_rc 3
  # ffmpeg 5.1 exits 0 after failing to write the file's end: its message must still fail it.
  expect_stderr_contains "$disk/$clip: ffmpeg"
  expect_stderr_contains "No space left on device"
  expect_one_error_line "$clip"
  expect_no_file "$disk/$clip" "a clip on a full disk"
  left=$(find "$disk" -maxdepth 1 -name '.*.tmp-*' | head -3)
  [[ -z $left ]] || fail "$clip: temporaries left on the full disk: $left"
  rm -rf "${disk:?}"/*
done

run_murmur record --scenario "$scenario" --frames 120 --size 160x90 --quiet --out "$disk/frames"
expect_rc 3
expect_stderr_contains "$disk/frames/frame_"
expect_stderr_contains "write failed (No space left on device)"
expect_one_error_line "PNG frames"
# The frames written before the disk filled stay (each complete), but without the manifest
# that marks a complete recording, and no half-written frame or temporary under any name.
expect_no_file "$disk/frames/manifest.toml" "a recording that failed"
frames=$(find "$disk/frames" -name 'frame_*.png' | wc -l)
((frames >= 1 && frames < 120)) || fail "expected some but not all 120 frames, found $frames"
for frame in "$disk"/frames/frame_*.png; do
  python3 "$source_dir/tests/cli/png_tool.py" colours "$frame" >/dev/null 2>&1 ||
    fail "$frame is not a complete PNG"
done
left=$(find "$disk/frames" -name '.*' -type f | head -3)
[[ -z $left ]] || fail "PNG frames: temporaries left on the full disk: $left"

finish
