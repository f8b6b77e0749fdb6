# Shared by tests/cli/*.sh (this file is not itself a test: ctest runs only *.sh).
# Usage, at the top of a test:  source "$2/tests/cli/lib.bash" "$@"
# Gives: $murmur, $source_dir, $work (a temporary directory removed on exit), run_murmur,
# the expect_* checks (each records a failure and carries on) and finish (exit status).

if (($# < 2)); then
  echo "usage: bash $0 <path-to-murmur> <source-dir>" >&2
  exit 2
fi
murmur=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# Runs murmur with the given arguments; sets $rc, $out (stdout) and $err (stderr).
run_murmur() {
  set +e
  "$murmur" "$@" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  set -e
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
  last_command="murmur $*"
}

describe_run() {
  echo "  command: $last_command" >&2
  echo "  exit status: $rc" >&2
  echo "  stdout: ${out:0:2000}" >&2
  echo "  stderr: ${err:0:2000}" >&2
}

expect_rc() {
  if [[ $rc -ne $1 ]]; then
    fail "expected exit status $1"
    describe_run
  fi
}

expect_stdout_contains() {
  if [[ $out != *"$1"* ]]; then
    fail "stdout lacks '$1'"
    describe_run
  fi
}

expect_stderr_contains() {
  if [[ $err != *"$1"* ]]; then
    fail "stderr lacks '$1'"
    describe_run
  fi
}

expect_stderr_empty() {
  if [[ -n $err ]]; then
    fail "stderr not empty"
    describe_run
  fi
}

expect_stdout_empty() {
  if [[ -n $out ]]; then
    fail "stdout not empty"
    describe_run
  fi
}

# A usage error: exit 2, nothing on stdout, exactly one line on stderr containing each argument.
expect_usage_error() {
  expect_rc 2
  expect_stdout_empty
  if [[ -z $err ]]; then
    fail "expected one line on stderr, got none"
    describe_run
  elif [[ $err == *$'\n'* ]]; then
    fail "expected one line on stderr, got $(printf '%s\n' "$err" | wc -l)"
    describe_run
  fi
  local text
  for text in "$@"; do expect_stderr_contains "$text"; done
}

expect_same_file() {
  if ! cmp -s "$1" "$2"; then
    fail "$3: $1 and $2 differ"
    diff <(head -5 "$1") <(head -5 "$2") >&2 || true
  fi
}

expect_different_file() {
  if cmp -s "$1" "$2"; then fail "$3: $1 and $2 are identical"; fi
}

expect_no_file() {
  if [[ -e $1 ]]; then fail "$2: $1 exists"; fi
}

# A small scenario, so that every backend runs in well under a second on llvmpipe.
# Arguments: path [topology] [count].
# Exits (a test failure, not a skip) naming the first of the given tools that is missing.
require_tools() {
  local test_name=$1 tool
  shift
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null; then
      echo "$test_name: $tool is missing (tools/setup installs it)" >&2
      exit 1
    fi
  done
}

write_tiny_scenario() {
  local topology=${2:-wrap}
  local count=${3:-48}
  cat >"$1" <<TOML
[world]
width = 60.0
height = 40.0
seed = 42

[[species]]
name = "tiny"
count = $count
topology = "$topology"
perception_radius = 6.0
separation_radius = 2.0
fov_degrees = 270.0
align_weight = 0.05
cohesion_weight = 0.01
separation_weight = 0.5
max_force = 0.1
min_speed = 0.5
max_speed = 1.5
edge_margin = 4.0
edge_gain = 0.05
TOML
}

finish() {
  if ((failures)); then
    echo "$(basename "$0"): $failures check(s) failed" >&2
    exit 1
  fi
  echo "$(basename "$0"): all checks passed"
}
