#!/usr/bin/env bash
# --help and --version print to stdout and exit 0 (GNU coding standards); no command at all is
# a usage error, so a script that forgets the command fails loudly.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

for flag in --help -h; do
  run_murmur "$flag"
  expect_rc 0
  expect_stderr_empty
  expect_stdout_contains "usage: murmur <command>"
  for command in step stats record bench; do expect_stdout_contains "  $command "; done
done

run_murmur --version
expect_rc 0
expect_stderr_empty
if [[ ! $out =~ ^murmur\ [0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  fail "--version printed '$out', expected 'murmur X.Y.Z'"
fi

# Each command's help names its own flags, so it is that command's text and not a generic one.
declare -A some_flag=([step]=--steps [stats]=--every [record]=--steps-per-frame [bench]=--max-naive)
for command in "${!some_flag[@]}"; do
  for flag in --help -h; do
    run_murmur "$command" "$flag"
    expect_rc 0
    expect_stderr_empty
    expect_stdout_contains "usage: murmur $command "
    expect_stdout_contains "${some_flag[$command]}"
  done
done

# Each command's help is generated from its flag declarations: value name, accepted range,
# default, and the rules between flags, which the usage line shows too.
run_murmur record --help
expect_stdout_contains "  --frames N "
expect_stdout_contains "in [1, 4294967295] (default 300)"
run_murmur step --help
expect_stdout_contains "usage: murmur step --scenario FILE --steps N --out FILE [flags]"
expect_stdout_contains "(not with --seed)"
run_murmur stats --help
expect_stdout_contains "usage: murmur stats --scenario FILE (--in FILE | --steps N) [flags]"
expect_stdout_contains "(default 1; only with --steps)"

# --help wins over whatever else is on the line, even flags that would be rejected.
run_murmur step --steps -1 --help
expect_rc 0
expect_stdout_contains "usage: murmur step "

# With a display, no command opens the viewer: unset DISPLAY to test the usage path.
DISPLAY= run_murmur
expect_rc 2
expect_stdout_empty
expect_stderr_contains "usage: murmur <command>"

finish
