#!/usr/bin/env bash
# The memory estimate against a cgroup's limit (docs/reliability.md, "The memory estimate"): a
# run in a memory cgroup of 64 MiB, the process's own (not the hierarchy's root), is refused up
# front, exit 4 naming the cgroup's limit, nothing written. Making a cgroup needs a writable
# memory controller (root, cgroup v1 or v2); without one the test says why and exits 77, which
# ctest reports as skipped.
set -euo pipefail
source "$2/tests/cli/lib.bash" "$@"

limit_bytes=$((64 * 1024 * 1024))
group=""
if [[ -w /sys/fs/cgroup/memory ]]; then  # v1
  group=/sys/fs/cgroup/memory/murmur_test_$$
  limit_file=memory.limit_in_bytes
  limit_name="the cgroup's memory.limit_in_bytes"
elif [[ -w /sys/fs/cgroup && -r /sys/fs/cgroup/cgroup.subtree_control ]] &&
  grep -qw memory /sys/fs/cgroup/cgroup.subtree_control; then  # v2
  group=/sys/fs/cgroup/murmur_test_$$
  limit_file=memory.max
  limit_name="the cgroup's memory.max"
fi
if [[ -z $group ]] || ! mkdir "$group" 2>/dev/null; then
  echo "SKIPPED: memory cgroup test: no writable memory cgroup controller here" \
    "(/sys/fs/cgroup/memory or cgroup v2's memory in cgroup.subtree_control)" >&2
  exit 77
fi
trap 'rmdir "$group" 2>/dev/null || true; rm -rf "$work"' EXIT
echo $limit_bytes >"$group/$limit_file"

write_tiny_scenario "$work/huge.toml"
sed -i 's/^count = .*/count = 2000000/' "$work/huge.toml"
set +e
# The child joins the group, then becomes murmur: only it runs under the limit.
bash -c 'echo $$ >"$1/cgroup.procs" && exec "$2" step --scenario "$3" --steps 1 --backend cpu \
  --quiet --out "$4"' _ "$group" "$murmur" "$work/huge.toml" "$work/state.csv" \
  >"$work/stdout" 2>"$work/stderr"
rc=$?
set -e
out=$(cat "$work/stdout") err=$(cat "$work/stderr")
last_command="murmur step, 2,000,000 boids in a cgroup of 64 MiB"
expect_rc 4
expect_stderr_contains "murmur step: not enough host memory for 2000000 boids"
expect_stderr_contains "($limit_name); at most"
expect_no_file "$work/state.csv" "a run refused up front"

finish
