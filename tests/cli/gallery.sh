#!/usr/bin/env bash
# docs/gallery.md and tools/gallery agree: every command the page shows (tools/gallery --list
# reads them from it) names a scenario that exists, and its picture is in
# docs/images/gallery/, linked from the page and at most 200 KB; every origin preset has a
# picture; the README links the gallery. tools/gallery remakes a picture from its command (the
# tutorial's, the cheapest), keeps a picture whose pixels are the same (the same bytes on the
# next run, and an older encoding of the same pixels left as it is) and rewrites one whose
# pixels differ; a bad argument is exit 2 with one line.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"
require_tools gallery ffmpeg

gallery=$source_dir/tools/gallery
page=$source_dir/docs/gallery.md
max_picture_bytes=$((200 * 1024))

set +e
listed=$("$gallery" --list 2>"$work/list_err")
list_rc=$?
set -e
((list_rc == 0)) || fail "tools/gallery --list exited $list_rc: $(cat "$work/list_err")"
commands=()
[[ -z $listed ]] || mapfile -t commands <<<"$listed"
((${#commands[@]} > 1)) || fail "tools/gallery --list printed ${#commands[@]} command(s)"

# The value after FLAG in COMMAND.
flag_value() {
  local -a words
  read -ra words <<<"$2"
  local i
  for ((i = 0; i + 1 < ${#words[@]}; i++)); do
    [[ ${words[i]} == "$1" ]] && echo "${words[i + 1]}"
  done
  return 0
}

shown_scenarios=()
for command in "${commands[@]}"; do
  scenario=$(flag_value --scenario "$command")
  out=$(flag_value --out "$command")
  name=${out#out/gallery/}
  name=${name%.png}  # a plan command writes out/gallery/NAME.png
  [[ -f $source_dir/$scenario ]] || fail "'$command': no scenario $scenario"
  shown_scenarios+=("$scenario")
  picture=$source_dir/docs/images/gallery/$name.png
  if [[ ! -f $picture ]]; then
    fail "'$command': no picture docs/images/gallery/$name.png (run tools/gallery $name)"
    continue
  fi
  bytes=$(stat -c %s "$picture")
  ((bytes <= max_picture_bytes)) || fail "$name.png is $bytes bytes, over $max_picture_bytes"
  grep -q "](images/gallery/$name.png)" "$page" || fail "docs/gallery.md does not show $name.png"
done

shopt -s nullglob
for preset in "$source_dir"/scenarios/origin[0-9][0-9][0-9]-*.toml; do
  relative=scenarios/$(basename "$preset")
  [[ " ${shown_scenarios[*]} " == *" $relative "* ]] || fail "the gallery has no picture of $relative"
done
grep -q "](docs/gallery.md)" "$source_dir/README.md" || fail "README.md does not link docs/gallery.md"

# Remaking one picture, into the test's directory rather than the source tree.
set +e
"$gallery" --murmur "$murmur" --images "$work/pictures" --frames-root "$work/frames" \
  origin002-tutorial >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
if ((rc != 0)); then
  fail "tools/gallery origin002-tutorial exited $rc: $(tail -3 "$work/stderr")"
elif [[ ! -f $work/pictures/origin002-tutorial.png ]]; then
  fail "tools/gallery origin002-tutorial made no picture"
else
  [[ $(python3 "$source_dir/tests/cli/png_tool.py" colours "$work/pictures/origin002-tutorial.png") == several ]] ||
    fail "the remade tutorial picture is one colour"
  [[ ! -e $work/pictures/origin002-glow.png ]] || fail "tools/gallery NAME made other pictures too"
fi

# Runs tools/gallery on the tutorial again, into the same pictures.
remake_tutorial() {
  set +e
  "$gallery" --murmur "$murmur" --images "$work/pictures" --frames-root "$work/frames" \
    origin002-tutorial >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  ((rc == 0)) || fail "tools/gallery origin002-tutorial ($1) exited $rc: $(tail -3 "$work/stderr")"
}
tutorial=$work/pictures/origin002-tutorial.png
if [[ -f $tutorial ]]; then
  # The same command gives the same bytes.
  cp "$tutorial" "$work/first.png"
  remake_tutorial "a second time"
  expect_same_file "$work/first.png" "$tutorial" "the tutorial's picture made twice"
  # The same pixels in other bytes (another zlib level) are the same picture: kept as they are.
  ffmpeg -nostdin -v error -i "$work/first.png" -compression_level 0 "$work/reencoded.png"
  cmp -s "$work/first.png" "$work/reencoded.png" && fail "the re-encoded picture has the same bytes"
  cp "$work/reencoded.png" "$tutorial"
  remake_tutorial "over the same pixels in other bytes"
  expect_same_file "$work/reencoded.png" "$tutorial" "a picture of the same pixels"
  grep -q "origin002-tutorial: the same pixels as" "$work/stderr" ||
    fail "tools/gallery did not say it kept the tutorial's picture: $(cat "$work/stderr")"
  # Other pixels are another picture: rewritten.
  cp "$source_dir/docs/images/gallery/origin002-glow.png" "$tutorial"
  remake_tutorial "over another picture"
  expect_same_file "$work/first.png" "$tutorial" "a picture whose pixels changed, remade"
fi

for args in "no-such-entry" "--bogus" "--images"; do
  set +e
  "$gallery" $args >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  err=$(cat "$work/stderr")
  ((rc == 2)) || fail "tools/gallery $args exited $rc, expected 2"
  [[ -n $err && $err != *$'\n'* ]] || fail "tools/gallery $args: expected one line on stderr, got '$err'"
done

finish
