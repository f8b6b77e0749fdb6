// The harness (murmur.compare) and the parameter study's pieces that murmur.sweep
// (src/python/murmur/sweep.py) puts together: the sweep's runs in order, one run to its row
// (study::run_sweep_point, the function `murmur sweep`'s jobs call), and the journal.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bindings.hpp"
#include "gpu_work.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/input_file.hpp"
#include "murmur/flock/gpu/harness.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/gpu/plan_harness.hpp"
#include "murmur/study/journal.hpp"
#include "murmur/study/run.hpp"
#include "murmur/study/sweep.hpp"

namespace murmur::python {
namespace {

NeighbourSearch search_named(const std::string& name) {
  if (name == "grid") return NeighbourSearch::Grid;
  if (name == "naive") return NeighbourSearch::Naive;
  throw InputError("compare: search '" + name + "': use grid or naive");
}

py::dict flock_report(const CompareReport& report) {
  py::dict neighbours;
  neighbours["passed"] = report.neighbours.passed();
  neighbours["boids"] = report.neighbours.boids;
  neighbours["mismatched_boids"] = report.neighbours.mismatched_boids;
  neighbours["ambiguous_pairs"] = report.neighbours.ambiguous_pairs;
  py::dict lockstep;
  lockstep["passed"] = report.lockstep.passed();
  lockstep["boids"] = report.lockstep.boids;
  lockstep["failed"] = report.lockstep.failed;
  lockstep["skipped_ambiguous"] = report.lockstep.skipped_ambiguous;
  lockstep["event_mismatches"] = report.lockstep.event_mismatches;
  lockstep["max_velocity_error"] = report.lockstep.max_velocity_error;
  lockstep["max_position_error"] = report.lockstep.max_position_error;
  lockstep["worst_error_over_tolerance"] = report.lockstep.worst_error_over_tolerance;
  py::dict free_run;
  free_run["passed"] = report.free_run.passed();
  free_run["ran"] = report.free_run.ran;
  py::list drift;
  for (const DriftSample& sample : report.free_run.samples) {
    py::dict row;
    row["step"] = sample.step;
    row["gpu_vs_cpu"] = sample.gpu_vs_cpu;
    row["envelope"] = sample.envelope;
    row["limit"] = sample.limit;
    drift.append(row);
  }
  free_run["drift"] = drift;
  py::dict stats;
  for (const StatAgreement& stat : report.free_run.stats) {
    py::dict row;
    row["gpu"] = stat.gpu;
    row["cpu"] = stat.cpu;
    row["limit"] = stat.limit;
    row["passed"] = stat.passed();
    stats[stat.name.c_str()] = row;
  }
  free_run["stats"] = stats;
  py::dict out;
  out["passed"] = report.passed();
  out["kind"] = "flock";
  out["boids"] = report.boids;
  out["neighbours"] = neighbours;
  out["lockstep"] = lockstep;
  out["free_run"] = free_run;
  out["table"] = report.table();
  return out;
}

py::dict plan_report(const PlanCompareReport& report) {
  py::dict out;
  out["passed"] = report.passed();
  out["kind"] = "plan";
  out["agents"] = report.agents;
  out["steps"] = report.steps;
  out["differing_agents"] = report.differing_agents;
  out["divergent_agents"] = report.divergent_agents;
  out["rule_checks"] = report.rule_checks;
  out["rule_violations"] = report.rule_violations;
  out["max_location_error"] = report.max_location_error;
  out["table"] = report.table();
  return out;
}

py::dict compare(const PyScenario& scenario, std::optional<std::uint32_t> steps,
                 std::uint32_t lockstep, std::optional<std::uint64_t> seed,
                 const std::string& search, std::uint32_t samples, std::uint32_t envelope_runs) {
  AnyScenario subject = scenario.value;
  if (seed) common_of(subject).world.seed = *seed;
  if (auto* flock = std::get_if<FlockScenario>(&subject)) {
    CompareOptions options;
    options.lockstep_steps = lockstep;
    options.free_steps = steps.value_or(kDefaultCompareFreeSteps);
    options.samples = samples;
    options.envelope_runs = envelope_runs;
    options.search = search_named(search);
    const FlockState start = seeded_start(*flock);
    const CompareReport report = without_gil(true, [&] {
      gl::Context& context = GlThread::instance().context();
      CompareReport made = run_comparison(*flock, start, options);
      context.check_gl_errors("the comparison");
      return made;
    });
    return flock_report(report);
  }
  const PlanScenario& plan = std::get<PlanScenario>(subject);
  PlanCompareOptions options;
  options.steps = steps.value_or(kDefaultPlanCompareSteps);
  const PlanCompareReport report = without_gil(true, [&] {
    gl::Context& context = GlThread::instance().context();
    options.max_divergent = default_plan_bound(context.info().renderer);
    PlanCompareReport made = run_plan_comparison(plan, options);
    context.check_gl_errors("the comparison");
    return made;
  });
  return plan_report(report);
}

// A --vary as Python gives it: a key and either its values as TOML texts or a FROM:TO:COUNT
// (or V1,V2,...) text.
using AxisValues = std::variant<std::vector<std::string>, std::string>;

using PyAxes = std::vector<std::pair<std::string, AxisValues>>;

// The axes of `vary` ("vary") or `vary_with` ("vary_with"), as --vary and --vary-with read them.
std::vector<study::VaryAxis> axes_of(const PyAxes& given_axes, const std::string& argument) {
  std::vector<study::VaryAxis> axes;
  for (const auto& [key, values] : given_axes) {
    if (const auto* spec = std::get_if<std::string>(&values)) {
      axes.push_back(study::parse_vary(key + "=" + *spec));
    } else {
      const auto& list = std::get<std::vector<std::string>>(values);
      std::string given = key + "=";
      for (std::size_t i = 0; i < list.size(); ++i) given += (i ? "," : "") + list[i];
      if (list.empty()) throw InputError(argument + ": " + key + " has no values");
      axes.push_back({key, list, given});
    }
  }
  return axes;
}

study::SweepDefinition define(const PyScenario& scenario, const PyAxes& vary,
                              const PyAxes& vary_with,
                              const std::variant<std::uint64_t, std::vector<std::uint64_t>>& seeds,
                              std::uint32_t steps, std::uint32_t every, std::uint32_t measure_from) {
  std::vector<study::VaryAxis> axes =
      study::sweep_axes(axes_of(vary, "vary"), axes_of(vary_with, "vary_with"));
  study::SeedChoice choice;
  if (const auto* count = std::get_if<std::uint64_t>(&seeds)) {
    choice.count = *count;
    if (*count == 0) throw InputError("seeds: 0 seeds; give at least 1");
  } else {
    choice.list = std::get<std::vector<std::uint64_t>>(seeds);
    if (choice.list.empty()) throw InputError("seeds: an empty list; give at least one seed");
  }
  study::SweepDefinition sweep = study::define_sweep(flock_of(scenario, "sweep"), std::move(axes),
                                                     choice, {steps, every, measure_from});
  warn_if_dense(sweep.scenario);
  return sweep;
}

std::vector<std::string> run_point(const PyScenario& scenario,
                                   const std::vector<std::pair<std::string, std::string>>& overrides,
                                   std::uint64_t seed, std::uint32_t steps, std::uint32_t every,
                                   std::uint32_t measure_from, const std::string& backend) {
  const FlockBackend chosen = flock_backend_named(backend);
  study::SweepRun run;
  run.seed = seed;
  for (const auto& [key, value] : overrides) run.overrides.push_back({key, value});
  const FlockScenario& base = flock_of(scenario, "sweep");
  const study::SampleWindow window{steps, every, measure_from};
  return without_gil(chosen != FlockBackend::Cpu, [&] {
    gl::Context* context =
        chosen != FlockBackend::Cpu ? &GlThread::instance().context() : nullptr;
    return study::run_sweep_point(base, run, window, chosen, {}, context).row;
  });
}

}  // namespace

void bind_study(py::module_& module) {
  module.def("compare", &compare, py::arg("scenario"), py::arg("steps") = py::none(),
             py::arg("lockstep") = 10, py::arg("seed") = py::none(), py::arg("search") = "grid",
             py::arg("samples") = 10, py::arg("envelope_runs") = 3,
             "The GPU held to the CPU reference, as `murmur compare`; the report as a dict.");

  py::class_<study::SweepDefinition>(module, "_SweepDefinition")
      .def_property_readonly("header",
                             [](const study::SweepDefinition& sweep) {
                               return study::sweep_header(sweep.scenario, sweep.axes);
                             })
      .def_property_readonly("runs",
                             [](const study::SweepDefinition& sweep) {
                               py::list runs;
                               for (const study::SweepRun& run : sweep.runs) {
                                 std::vector<std::pair<std::string, std::string>> overrides;
                                 for (const study::Override& o : run.overrides) {
                                   overrides.emplace_back(o.key, o.value);
                                 }
                                 runs.append(py::make_tuple(run.index, overrides, run.seed));
                               }
                               return runs;
                             })
      .def("describe",
           [](const study::SweepDefinition& sweep, std::size_t index) {
             return study::describe_run(sweep.runs.at(index));
           })
      .def_property_readonly("axis_flags", [](const study::SweepDefinition& sweep) {
        // As the command line gives them: what a journal records.
        std::vector<std::string> flags;
        for (const study::VaryAxis& axis : sweep.axes) {
          flags.push_back((axis.in_step ? "--vary-with " : "--vary ") + axis.given);
        }
        return flags;
      });
  module.def("_define_sweep", &define, py::arg("scenario"), py::arg("vary"),
             py::arg("vary_with"), py::arg("seeds"),
             py::arg("steps"), py::arg("every"), py::arg("measure_from"));
  module.def("_run_point", &run_point, py::arg("scenario"), py::arg("overrides"),
             py::arg("seed"), py::arg("steps"), py::arg("every"), py::arg("measure_from"),
             py::arg("backend"));
  module.def("_check_backend", [](const std::string& name) { flock_backend_named(name); });
  module.def("_contexts_made", [] { return GlThread::instance().contexts_made(); });
  module.def("_csv_line", [](const std::vector<std::string>& cells) {
    return study::csv_line(cells);
  });

  py::class_<study::JournalFile>(module, "_Journal")
      .def("append", [](study::JournalFile& journal, std::size_t run, const std::string& row) {
        journal.append(run, row);
      });
  module.def("_journal_path", [](const std::filesystem::path& out) {
    return study::journal_path(out);
  });
  module.def(
      "_journal_create",
      [](const std::filesystem::path& path, std::vector<std::string> definition,
         std::string header) {
        return study::JournalFile::create(path, {std::move(definition), std::move(header)});
      });
  // The journal's rows (run -> row) and the journal reopened to append to.
  module.def(
      "_journal_resume",
      [](const std::filesystem::path& path, std::vector<std::string> definition,
         std::string header, std::size_t runs) {
        study::JournalRows kept = study::read_journal(
            read_input_file(path, "sweep journal"), path.string(), {std::move(definition), std::move(header)}, runs);
        return py::make_tuple(kept.rows, study::JournalFile::reopen(path, kept.whole_bytes));
      });
}

}  // namespace murmur::python
