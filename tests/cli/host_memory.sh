#!/usr/bin/env bash
# Out of host memory, as murmur answers it today: exit 5 (internal error) with one line,
# `internal error: std::bad_alloc`, and no output file. It is the one honest way to reach exit
# 5, so this is what shows that an exception no other status claims still ends in one line and
# exit 5 rather than a crash (src/app/main.cpp). Host memory has no message of its own yet
# (docs/reliability.md, "Failure modes"); when it gets one, this test moves to it.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

# 16 million boids: the CPU's copy of the start alone is 512 MB, past the limit below. The CPU
# backend makes no GL context, so the limit meets murmur's own allocations only.
scenario=$work/huge.toml
write_tiny_scenario "$scenario"
sed -i 's/^count = .*/count = 16000000/' "$scenario"
address_space_kib=400000

rc=0
err=$( (ulimit -v $address_space_kib && "$murmur" step --scenario "$scenario" --backend cpu \
  --steps 1 --quiet --out "$work/state.csv" >/dev/null) 2>&1) || rc=$?
out=""
last_command="murmur step --scenario huge.toml --backend cpu --steps 1 (ulimit -v $address_space_kib)"
expect_rc 5
expect_stderr_contains "murmur step: internal error: std::bad_alloc"
expect_no_file "$work/state.csv" "a run out of memory"
if [[ $(grep -vc '^seed ' <<<"$err") != 1 ]]; then
  fail "not one line of error"
  describe_run
fi

finish
