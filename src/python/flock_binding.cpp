// murmur.Flock: a flock stepped on one of its backends, its state as a numpy structured array,
// its statistics and its frames (docs/python.md, "Flocks").

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "bindings.hpp"
#include "gpu_work.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/flock/gpu/simulation.hpp"
#include "murmur/flock/state.hpp"
#include "murmur/flock/stats.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/render/settings.hpp"

namespace murmur::python {

// One boid as the state file's columns: the dtype of `murmur step --out x.npy`
// (write_state_npy), in a 2D world and in a 3D one.
struct BoidRow {
  std::uint32_t id;
  std::uint32_t species;
  float x, y, vx, vy;
  std::uint32_t age;
  float energy;
};
struct BoidRow3D {
  std::uint32_t id;
  std::uint32_t species;
  float x, y, z, vx, vy, vz;
  std::uint32_t age;
  float energy;
};

namespace {

// The side of the first renderer a flock makes, before a frame's size is known; the trails it
// records live in the world, not the frame, and render() resizes it.
constexpr int kFirstRendererSide = 1;

template <typename Row>
Row row_of(const Boid& b) {
  if constexpr (std::is_same_v<Row, BoidRow3D>) {
    return {b.id, b.species, b.pos.x, b.pos.y, b.z, b.vel.x, b.vel.y, b.vz, b.age, b.energy};
  } else {
    return {b.id, b.species, b.pos.x, b.pos.y, b.vel.x, b.vel.y, b.age, b.energy};
  }
}
Boid boid_of(const BoidRow& row) {
  Boid boid;
  boid.id = row.id;
  boid.species = row.species;
  boid.pos = {row.x, row.y};
  boid.vel = {row.vx, row.vy};
  boid.age = row.age;
  boid.energy = row.energy;
  return boid;
}
Boid boid_of(const BoidRow3D& row) {
  Boid boid = boid_of(BoidRow{row.id, row.species, row.x, row.y, row.vx, row.vy, row.age,
                              row.energy});
  boid.z = row.z;
  boid.vz = row.vz;
  return boid;
}

template <typename Row>
py::array rows_of(const FlockState& state) {
  py::array_t<Row> rows(static_cast<py::ssize_t>(state.boids.size()));
  Row* out = rows.mutable_data();
  for (const Boid& boid : state.boids) *out++ = row_of<Row>(boid);
  return rows;
}

// The dtype of a flock of `scenario`: with z and vz in a 3D world.
py::dtype dtype_of(const FlockScenario& scenario) {
  return is_3d(scenario) ? py::dtype::of<BoidRow3D>() : py::dtype::of<BoidRow>();
}

py::array boids_array(const FlockState& state, const FlockScenario& scenario) {
  return is_3d(scenario) ? rows_of<BoidRow3D>(state) : rows_of<BoidRow>(state);
}

std::string text_of(const py::dtype& dtype) {
  return py::str(static_cast<const py::handle&>(dtype)).cast<std::string>();
}

template <typename Row>
std::vector<Boid> boids_from(const py::array& array) {
  const auto rows = py::array_t<Row, py::array::c_style | py::array::forcecast>::ensure(array);
  std::vector<Boid> boids;
  boids.reserve(static_cast<std::size_t>(rows.size()));
  for (py::ssize_t i = 0; i < rows.size(); ++i) boids.push_back(boid_of(rows.data()[i]));
  return boids;
}

// The boids of `array`, which must have the dtype of a flock of `scenario`; the other world's
// dtype is refused by name, as the likeliest mistake.
std::vector<Boid> boids_of(const py::array& array, const FlockScenario& scenario,
                           const std::string& what) {
  const bool volume = is_3d(scenario);
  const py::dtype expected = dtype_of(scenario);
  const py::dtype other = volume ? py::dtype::of<BoidRow>() : py::dtype::of<BoidRow3D>();
  if (array.ndim() == 1 && array.dtype().equal(other)) {
    throw InputError(what + ": " +
                     (volume ? "no z and vz fields: a 2D flock's array, but the world is 3D"
                             : "z and vz fields: a 3D flock's array, but the world is 2D") +
                     " (world.dimensions = " + std::to_string(scenario.world.dimensions) +
                     "); needs dtype " + text_of(expected));
  }
  if (array.ndim() != 1 || !array.dtype().equal(expected)) {
    throw InputError(what + ": needs a 1-D array of dtype " +
                     text_of(expected) + " (Flock.state's), got " +
                     std::to_string(array.ndim()) + "-D of " + text_of(array.dtype()));
  }
  return volume ? boids_from<BoidRow3D>(array) : boids_from<BoidRow>(array);
}

class PyFlock {
 public:
  PyFlock(const PyScenario& scenario, const std::string& backend,
          std::optional<std::uint64_t> seed, std::optional<py::array> state, bool trails)
      : scenario_(flock_of(scenario, "Flock")), backend_(flock_backend_named(backend)), trails_(trails) {
    if (seed) scenario_.world.seed = *seed;
    warn_if_dense(scenario_);
    FlockState start;
    if (state) {
      FlockState given;
      given.boids = boids_of(*state, scenario_, "Flock(state=...)");
      given.food = initial_food(scenario_);
      start = carried_state(given, scenario_.world.dimensions, scenario_, "Flock(state=...)");
    } else {
      start = seeded_start(scenario_);
    }
    without_gil(on_gpu(), [&] {
      simulation_ = std::make_unique<Simulation>(scenario_, start, backend_, context());
      if (on_gpu() && trails_) renderer_ = make_renderer();
    });
  }

  ~PyFlock() {
    try {
      close();
    } catch (...) {  // a destructor has nowhere to report to
    }
  }

  void close() {
    if (!simulation_) return;
    without_gil(on_gpu(), [&] {
      renderer_.reset();
      simulation_.reset();
    });
  }

  void step(std::int64_t steps) {
    if (steps < 0) throw InputError("Flock.step: n " + std::to_string(steps) + " must be >= 0");
    Simulation& simulation = open("step");
    without_gil(on_gpu(), [&] {
      if (!renderer_) {
        simulation.step(static_cast<std::uint32_t>(steps));
        return;
      }
      // As `murmur record` steps: the trails see every step.
      for (std::int64_t i = 0; i < steps; ++i) {
        simulation.step(1);
        renderer_->record_step(*simulation.gpu_flock());
      }
    });
  }

  std::uint64_t step_index() {
    Simulation& simulation = open("step_index");
    return without_gil(on_gpu(), [&] { return simulation.step_index(); });
  }

  py::array state() { return boids_array(current_state("state"), scenario_); }

  void set_state(const py::array& array) {
    Simulation& simulation = open("set_state");
    FlockState now = current_state("set_state");
    FlockState given;
    given.boids = boids_of(array, scenario_, "Flock.set_state");
    given.step = now.step;
    given.food = std::move(now.food);
    given.totals = std::move(now.totals);
    const FlockState checked =
        carried_state(given, scenario_.world.dimensions, scenario_, "Flock.set_state");
    without_gil(on_gpu(), [&] {
      simulation.set_state(checked);
      if (renderer_) renderer_->reset_trails();
    });
  }

  // `murmur stats`'s row for now: step, then flock_stats_columns. Births and deaths are those
  // since the previous call (none at the first).
  py::dict stats() {
    const FlockState state = current_state("stats");
    const StatsSample sample = stats_sample(scenario_, state, previous_totals_);
    previous_totals_ = sample.population.totals;
    py::dict row;
    row["step"] = state.step;
    for (const StatsColumn& column : flock_stats_columns(scenario_)) {
      const StatsValue value = column.value(sample);
      if (column.kind == StatsColumn::Kind::Number) {
        row[column.name.c_str()] = value.number ? py::cast(*value.number) : py::none();
      } else {
        row[column.name.c_str()] = value.text.empty() ? py::none() : py::cast(value.text);
      }
    }
    return row;
  }

  // The frame `murmur record` writes for this scenario, seed and step, as (H, W, 3) uint8.
  py::array_t<std::uint8_t> render(int width, int height) {
    Simulation& simulation = open("render");
    if (!on_gpu()) {
      throw InputError("Flock.render: draws on the GPU; this flock's backend is cpu");
    }
    const RgbaImage image = without_gil(true, [&] {
      if (!renderer_) renderer_ = make_renderer();
      renderer_->resize(width, height);
      renderer_->render(*simulation.gpu_flock());
      RgbaImage pixels = renderer_->read_pixels();
      context()->check_gl_errors("the frame");
      return pixels;
    });
    py::array_t<std::uint8_t> rgb({image.height, image.width, 3});
    std::uint8_t* out = rgb.mutable_data();
    const std::size_t pixels = static_cast<std::size_t>(image.width) * image.height;
    for (std::size_t p = 0; p < pixels; ++p) std::memcpy(out + 3 * p, &image.pixels[4 * p], 3);
    return rgb;
  }

  bool closed() const { return !simulation_; }
  std::string backend_name() const {
    return backend_ == FlockBackend::Gpu ? "gpu" : backend_ == FlockBackend::GpuNaive ? "gpu-naive" : "cpu";
  }
  const FlockScenario& scenario() const { return scenario_; }

 private:
  bool on_gpu() const { return backend_ != FlockBackend::Cpu; }
  gl::Context* context() const { return on_gpu() ? &GlThread::instance().context() : nullptr; }

  Simulation& open(const std::string& what) {
    if (!simulation_) throw py::value_error("Flock." + what + ": the flock is closed");
    return *simulation_;
  }

  FlockState current_state(const std::string& what) {
    Simulation& simulation = open(what);
    return without_gil(on_gpu(), [&] { return simulation.state(); });
  }

  std::unique_ptr<Renderer> make_renderer() const {
    auto renderer = std::make_unique<Renderer>(kFirstRendererSide, kFirstRendererSide,
                                               default_render_settings(scenario_));
    apply_look(renderer->settings(), scenario_.look);
    return renderer;
  }

  FlockScenario scenario_;
  FlockBackend backend_;
  bool trails_;
  std::unique_ptr<Simulation> simulation_;
  std::unique_ptr<Renderer> renderer_;  // GPU backends: trails recorded since the start
  std::optional<std::vector<SpeciesTotals>> previous_totals_;
};

}  // namespace

void bind_flock(py::module_& module) {
  PYBIND11_NUMPY_DTYPE(BoidRow, id, species, x, y, vx, vy, age, energy);
  PYBIND11_NUMPY_DTYPE(BoidRow3D, id, species, x, y, z, vx, vy, vz, age, energy);
  py::class_<PyFlock>(module, "Flock")
      .def(py::init<const PyScenario&, const std::string&, std::optional<std::uint64_t>,
                    std::optional<py::array>, bool>(),
           py::arg("scenario"), py::arg("backend") = "gpu", py::arg("seed") = py::none(),
           py::arg("state") = py::none(), py::arg("trails") = true)
      .def("step", &PyFlock::step, py::arg("n") = 1)
      .def_property_readonly("step_index", &PyFlock::step_index)
      .def_property_readonly("state", &PyFlock::state)
      .def("set_state", &PyFlock::set_state, py::arg("state"))
      .def("stats", &PyFlock::stats)
      .def("render", &PyFlock::render, py::arg("width"), py::arg("height"))
      .def("close", &PyFlock::close)
      .def_property_readonly("closed", &PyFlock::closed)
      .def_property_readonly("backend", &PyFlock::backend_name)
      .def_property_readonly("seed", [](const PyFlock& flock) { return flock.scenario().world.seed; })
      .def("__enter__", [](PyFlock& flock) -> PyFlock& { return flock; },
           py::return_value_policy::reference)
      .def("__exit__", [](PyFlock& flock, py::args) { flock.close(); })
      .def_property_readonly_static("dtype", [](py::object) { return py::dtype::of<BoidRow>(); })
      .def_property_readonly_static("dtype_3d",
                                    [](py::object) { return py::dtype::of<BoidRow3D>(); });
}

}  // namespace murmur::python
