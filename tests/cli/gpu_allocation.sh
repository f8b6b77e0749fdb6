#!/usr/bin/env bash
# A GPU allocation the driver refuses is exit 4 with one line naming the buffer and its bytes,
# not a crash. llvmpipe's GPU memory is this process's memory, so a limit on the address
# space (ulimit -v) makes a flock of 16 million boids too large for it (docs/reliability.md).
# The memory estimate would refuse these runs for their host memory first
# (tests/cli/memory_estimate.sh); skipped here (MURMUR_TEST_SKIP_MEMORY_ESTIMATE=1) to reach
# the driver's refusal, which an estimate that falls short meets.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

scenario=$work/huge.toml
write_tiny_scenario "$scenario"
sed -i 's/^count = .*/count = 16000000/' "$scenario"
# Room for the process, Mesa and the CPU's copy of the start (about 0.6 GB), not for the
# GPU's buffers of 0.64 GB each.
address_space_kib=1200000

for command in step stats; do
  rc=0
  err=$( (ulimit -v $address_space_kib && MURMUR_TEST_SKIP_MEMORY_ESTIMATE=1 "$murmur" $command --scenario "$scenario" --steps 1 \
    --quiet --out "$work/$command.csv" >/dev/null) 2>&1) || rc=$?
  out=""
  last_command="murmur $command --scenario huge.toml --steps 1 (ulimit -v $address_space_kib)"
  expect_rc 4
  expect_stderr_contains "murmur $command: cannot allocate"
  expect_stderr_contains "bytes of GPU memory for buffer"
  expect_stderr_contains "(the driver refused the allocation)"
  expect_no_file "$work/$command.csv" "a run that could not allocate"
  # Besides the seed, only the density's warning (16M boids crowd this world) and the error.
  if [[ $(grep -vc '^seed \|^warning: ' <<<"$err") != 1 ]]; then
    fail "$command: not one line of error"
    describe_run
  fi
done

finish
