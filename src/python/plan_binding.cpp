// murmur.Plan: a floor plan (origin 003's generator) stepped on the CPU reference or the GPU, its
// paths as a numpy structured array and its exports (docs/python.md, "Plans").

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "gpu_work.hpp"
#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/plan/export/plan_export.hpp"
#include "murmur/plan/gpu/gpu_plan.hpp"
#include "murmur/plan/plan.hpp"
#include "murmur/render/png_writer.hpp"

namespace murmur::python {

// A row of `murmur plan --out x.csv`: a point an agent saved, with the agent as that step left
// it; `parent` is -1 for an agent of the start (the CSV's empty cell).
struct PathRow {
  std::uint32_t agent;
  std::uint32_t step;
  float x, y, drawn_x, drawn_y;
  std::uint32_t turns;
  bool alive;
  std::int64_t parent;
};

namespace {

// The GPU's first room: a few steps' points of every agent (most plans die out long before they
// need more); make_room grows it as the steps go.
constexpr std::uint64_t kInitialStepsOfPoints = 64;
// The largest side of a PNG export (GL_MAX_TEXTURE_SIZE of most GPUs, as `murmur plan --size`).
constexpr int kMaxImageSide = 16384;

class PyPlan {
 public:
  PyPlan(const PyScenario& scenario, const std::string& backend, std::optional<std::uint64_t> seed)
      : scenario_(plan_scenario_of(scenario)) {
    if (backend != "gpu" && backend != "cpu") {
      throw InputError("Plan: backend '" + backend + "': use gpu or cpu");
    }
    on_gpu_ = backend == "gpu";
    if (seed) scenario_.world.seed = *seed;
    state_ = plan_start(scenario_, scenario_.world.seed);
    if (!on_gpu_) return;
    const std::uint64_t agents = gpu_plan_agent_capacity(
        scenario_, static_cast<std::uint32_t>(state_.agents.size()));
    const auto capacity = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(agents * kInitialStepsOfPoints, PlanPointIndex::kNone - 1));
    without_gil(true, [&] {
      GlThread::instance().context();
      gpu_ = std::make_unique<GpuPlan>(scenario_, state_, capacity);
    });
  }

  ~PyPlan() {
    try {
      close();
    } catch (...) {  // a destructor has nowhere to report to
    }
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    if (gpu_) without_gil(true, [&] { gpu_.reset(); });
  }

  // `steps` steps, each point saved kept for `paths` and the CSV.
  void step(std::int64_t steps) {
    if (closed_) throw py::value_error("Plan.step: the plan is closed");
    if (steps < 0) throw InputError("Plan.step: n " + std::to_string(steps) + " must be >= 0");
    without_gil(on_gpu_, [&] {
      for (std::int64_t i = 0; i < steps; ++i) {
        const std::size_t first_new_point = state_.points.size();
        if (gpu_) {
          try {
            gpu_->make_room(gpu_->counts(), gpu_->steps() + 1);
            gpu_->step();
          } catch (const std::length_error& error) {
            throw GpuError(std::string("the plan has no room: ") + error.what());
          }
          gpu_->update(state_);
          GlThread::instance().context().check_gl_errors("the plan's steps");
        } else {
          plan_step(scenario_, state_);
        }
        add_rows(first_new_point);
      }
    });
  }

  py::array_t<PathRow> paths() const {
    py::array_t<PathRow> array(static_cast<py::ssize_t>(rows_.size()));
    std::copy(rows_.begin(), rows_.end(), array.mutable_data());
    return array;
  }

  // Writes the drawing (.svg, .dxf, .png) or the paths (.csv) as `murmur plan --out` does.
  void write(const std::filesystem::path& path, std::optional<std::pair<int, int>> size) const {
    const std::optional<PlanFormat> format = plan_format_of(path);
    if (!format) {
      throw InputError("Plan.export: '" + path.string() +
                       "' must end in .svg, .dxf, .png or .csv");
    }
    if (size && *format != PlanFormat::Png) {
      throw InputError("Plan.export: size applies to PNG output only ('" + path.string() + "')");
    }
    py::gil_scoped_release release;
    const glm::vec2 canvas = scenario_.size();
    switch (*format) {
      case PlanFormat::Svg:
        write_file_atomically(path, plan_svg(canvas, plan_strokes(state_, plan_drawing(scenario_, state_))));
        break;
      case PlanFormat::Dxf:
        write_plan_dxf(path, plan_strokes(state_, plan_drawing(scenario_, state_)));
        break;
      case PlanFormat::Png: {
        const auto [width, height] = size ? *size : world_size_in_pixels();
        if (width < 1 || height < 1 || width > kMaxImageSide || height > kMaxImageSide) {
          throw InputError("Plan.export: size " + std::to_string(width) + "x" +
                           std::to_string(height) + ": width and height must be 1.." +
                           std::to_string(kMaxImageSide));
        }
        write_png(path, plan_image(canvas, plan_drawing(scenario_, state_), width, height));
        break;
      }
      case PlanFormat::Csv:
        write_file_atomically(path, csv_.text());
        break;
    }
  }

  std::uint64_t step_index() const { return state_.step; }
  std::uint32_t living() const { return state_.living(); }
  bool closed() const { return closed_; }

 private:
  static const PlanScenario& plan_scenario_of(const PyScenario& scenario) {
    if (const auto* plan = std::get_if<PlanScenario>(&scenario.value)) return *plan;
    throw InputError("Plan: needs a plan scenario ([plan]); " + common_of(scenario.value).source +
                     " is a flock scenario");
  }

  // One pixel per world unit, as `murmur plan` draws a PNG without --size.
  std::pair<int, int> world_size_in_pixels() const {
    return {static_cast<int>(std::ceil(double{scenario_.world.width})),
            static_cast<int>(std::ceil(double{scenario_.world.height}))};
  }

  void add_rows(std::size_t first_point) {
    csv_.add_step(state_, first_point);
    for (std::size_t p = first_point; p < state_.points.size(); ++p) {
      const PlanPoint& point = state_.points[p];
      const PlanAgent& agent = state_.agents[point.agent];
      rows_.push_back({agent.id, point.step, point.raw.x, point.raw.y, point.drawn.x,
                       point.drawn.y, agent.turns, agent.alive,
                       agent.parent == kPlanNoParent ? -1 : std::int64_t{agent.parent}});
    }
  }

  PlanScenario scenario_;
  bool on_gpu_ = false;
  bool closed_ = false;
  PlanState state_;
  std::unique_ptr<GpuPlan> gpu_;
  PlanCsv csv_;
  std::vector<PathRow> rows_;
};

}  // namespace

void bind_plan(py::module_& module) {
  PYBIND11_NUMPY_DTYPE(PathRow, agent, step, x, y, drawn_x, drawn_y, turns, alive, parent);
  py::class_<PyPlan>(module, "Plan")
      .def(py::init<const PyScenario&, const std::string&, std::optional<std::uint64_t>>(),
           py::arg("scenario"), py::arg("backend") = "gpu", py::arg("seed") = py::none())
      .def("step", &PyPlan::step, py::arg("n") = 1)
      .def_property_readonly("paths", &PyPlan::paths)
      .def("export", &PyPlan::write, py::arg("path"), py::arg("size") = py::none())
      .def_property_readonly("step_index", &PyPlan::step_index)
      .def_property_readonly("living", &PyPlan::living)
      .def("close", &PyPlan::close)
      .def_property_readonly("closed", &PyPlan::closed)
      .def("__enter__", [](PyPlan& plan) -> PyPlan& { return plan; },
           py::return_value_policy::reference)
      .def("__exit__", [](PyPlan& plan, py::args) { plan.close(); });
}

}  // namespace murmur::python
