// `murmur plan`: run a plan scenario (origin 003's floor-plan generator) N steps and export the
// drawing as SVG, DXF or PNG, or the paths as CSV (docs/floor-plan.md).
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "backend.hpp"
#include "commands.hpp"
#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/float_text.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/plan/export/plan_export.hpp"
#include "murmur/render/png_writer.hpp"

namespace murmur::cli {
namespace {

// The --out file's format: --format when given, else the extension's.
PlanFormat output_format(const FlagValues& options) {
  if (options.plan_format) return *options.plan_format;
  if (const std::optional<PlanFormat> format = plan_format_of(options.plan_out)) return *format;
  throw InputError("--out must end in .svg, .dxf, .png or .csv (or give --format), got '" +
                   options.plan_out + "'");
}

// The PNG's size: --size, else one pixel per world unit, which must fit kPlanImageSideRange.
FrameSize image_size(const FlagValues& options, const PlanScenario& scenario) {
  if (options.plan_size) return *options.plan_size;
  const double largest = static_cast<double>(kPlanImageSideRange.max);
  const double width = std::ceil(double{scenario.world.width});
  const double height = std::ceil(double{scenario.world.height});
  if (width > largest || height > largest) {
    std::string world;
    append_float(world, scenario.world.width);
    world += " x ";
    append_float(world, scenario.world.height);
    throw InputError(scenario.source + ": the world's " + world + " is too large for one PNG: " +
                     "give --size, each side at most " + std::to_string(kPlanImageSideRange.max));
  }
  return {static_cast<int>(width), static_cast<int>(height)};
}

int run_plan(const FlagValues& options) {
  const PlanFormat format = output_format(options);
  if (options.plan_size && format != PlanFormat::Png) {
    throw InputError("--size applies to PNG output only (--out " + options.plan_out + ")");
  }
  const PlanScenario scenario = load_plan_scenario_with_seed(options.plan_scenario, options.seed);
  const FrameSize size = format == PlanFormat::Png ? image_size(options, scenario) : FrameSize{};
  check_output_file(options.plan_out, "--out");

  PlanRun run(scenario, options.plan_backend, options.steps);
  std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(scenario.world.seed));
  // The CSV's rows are the points each step saves, with the agents as that step left them, so
  // they are gathered along the run; the drawings need only the final state.
  std::optional<PlanCsv> csv;
  if (format == PlanFormat::Csv) csv.emplace();
  Progress progress = command_progress("plan", "steps", options.steps, options.quiet);
  for (std::uint32_t done = 1; done <= options.steps; ++done) {
    const std::size_t first_new_point = csv ? run.state().points.size() : 0;
    run.step();
    if (csv) csv->add_step(run.state(), first_new_point);
    progress.update(done);
  }
  progress.finish();
  const PlanState& state = run.state();

  const glm::vec2 canvas = scenario.size();
  switch (format) {
    case PlanFormat::Svg:
      write_file_atomically(options.plan_out,
                            plan_svg(canvas, plan_strokes(state, plan_drawing(scenario, state))));
      break;
    case PlanFormat::Dxf:
      write_plan_dxf(options.plan_out, plan_strokes(state, plan_drawing(scenario, state)));
      break;
    case PlanFormat::Png:
      write_png(options.plan_out,
                plan_image(canvas, plan_drawing(scenario, state), size.width, size.height));
      break;
    case PlanFormat::Csv:
      write_file_atomically(options.plan_out, csv->text());
      break;
  }
  return kExitOk;
}

}  // namespace

int run_plan_steps_to_csv(const std::string& scenario, std::optional<std::uint64_t> seed,
                          std::uint32_t steps, bool on_gpu, const std::string& out, bool quiet) {
  FlagValues options;
  options.plan_scenario = scenario;
  options.seed = seed;
  options.steps = steps;
  options.plan_backend = on_gpu ? PlanBackend::Gpu : PlanBackend::Cpu;
  options.plan_out = out;
  options.plan_format = PlanFormat::Csv;
  options.quiet = quiet;
  return run_plan(options);
}

CommandDefinition plan_command() {
  return {"run a plan scenario (origin 003's floor plans) and export SVG, DXF, PNG or CSV",
      "Prints the seed on stderr (`seed 42`), then the progress unless --quiet. The file is\n"
      "written only when the run succeeds (temporary file, then rename). SVG and PNG show the\n"
      "world y up, as the viewer does; DXF is in world coordinates, one LWPOLYLINE per run of\n"
      "equal width on layer width-W; CSV has one row per agent per step it moved:\n"
      "agent,step,x,y,drawn_x,drawn_y,turns,alive,parent (empty but for a branch's child).",
      run_plan};
}

}  // namespace murmur::cli
