#!/usr/bin/env bash
# Running out of host memory is exit 4 with one line naming the allocation's size and the
# limit that bounded it (docs/commands.md, "Exit status"), never exit 5's "internal error", and leaves no
# output: 16M boids under `ulimit -v` on the CPU reference, whose state is host memory alone
# (a GPU buffer refused by the driver is tests/cli/gpu_allocation.sh's). The memory estimate
# would refuse this run before it allocates (tests/cli/memory_estimate.sh); skipped here
# (MURMUR_TEST_SKIP_MEMORY_ESTIMATE=1) to reach the allocation that fails when an estimate
# falls short.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

huge=$work/huge.toml
cat >"$huge" <<'TOML'
[world]
width = 40000.0
height = 40000.0
seed = 1

[[species]]
name = "many"
count = 16000000
perception_radius = 10.0
separation_radius = 2.0
TOML

# 800 MB of address space: the 16M boids' start alone (488 MiB a copy) does not fit twice.
limited() { (ulimit -v 800000 && MURMUR_TEST_SKIP_MEMORY_ESTIMATE=1 "$murmur" "$@"); }
set +e
limited step --scenario "$huge" --steps 1 --backend cpu --out "$work/state.csv" \
  >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
err=$(cat "$work/stderr") out=$(cat "$work/stdout")
last_command="murmur step --backend cpu (ulimit -v 800000)"
expect_rc 4
expect_stderr_contains "murmur step: out of host memory: an allocation of"
expect_stderr_contains "(RLIMIT_AS (ulimit -v))"
[[ $err != *"internal error"* ]] || { fail "reported as an internal error"; describe_run; }
expect_no_file "$work/state.csv" "a run out of memory"

finish
