#pragma once
// `murmur bench --plan` (cmd_bench_plan.cpp): the floor plan's step on the CPU reference and on
// GpuPlan at growing agent counts, as a Markdown table for BENCHMARKS.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace murmur::cli {

struct PlanBenchOptions {
  std::optional<std::vector<std::uint64_t>> sizes;  // empty: the plan's defaults
  std::optional<std::uint32_t> warmup_steps;        // empty: past the plan's warm-up
  std::optional<std::uint32_t> timed_steps;
  bool quiet = false;
};

int run_plan_bench(const PlanBenchOptions& options);
// The defaults the empty options take, for --help: "sizes 10000,100000, ...".
std::string plan_bench_defaults();

}  // namespace murmur::cli
