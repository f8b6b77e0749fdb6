// murmur._murmur: the C++ side of the Python package `murmur` (src/python/murmur/), which
// re-exports it. Errors are murmur's own, as Python exceptions with the command line's
// one-line messages.
#include "bindings.hpp"

#include "murmur/base/errors.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/version.hpp"

namespace murmur::python {

const FlockScenario& flock_of(const PyScenario& scenario, const std::string& what) {
  if (const auto* flock = std::get_if<FlockScenario>(&scenario.value)) return *flock;
  throw InputError(what + ": needs a flock scenario; " + common_of(scenario.value).source +
                   " is a plan scenario ([plan])");
}

FlockBackend flock_backend_named(const std::string& name) {
  if (name == "gpu") return FlockBackend::Gpu;
  if (name == "gpu-naive") return FlockBackend::GpuNaive;
  if (name == "cpu") return FlockBackend::Cpu;
  throw InputError("backend '" + name + "': use gpu, gpu-naive or cpu");
}

void warn_if_dense(const FlockScenario& scenario) {
  const std::string warning = density_warning(scenario, scenario.capacity());
  if (!warning.empty() && PyErr_WarnEx(PyExc_RuntimeWarning, warning.c_str(), 1) < 0) {
    throw py::error_already_set();  // warnings turned into errors
  }
}

}  // namespace murmur::python

PYBIND11_MODULE(_murmur, module) {
  namespace py = pybind11;
  using namespace murmur;
  module.doc() = "murmur's C++ core: scenarios, flocks, plans, the harness and sweeps";
  module.attr("__version__") = kVersion;

  // Bad input is a ValueError; a GL failure a RuntimeError; an unwritable path an OSError.
  static py::exception<InputError> scenario_error(module, "ScenarioError", PyExc_ValueError);
  static py::exception<GpuError> gpu_error(module, "GpuError", PyExc_RuntimeError);
  static py::exception<OutputError> output_error(module, "OutputError", PyExc_OSError);
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const InputError& e) {
      PyErr_SetString(scenario_error.ptr(), e.what());
    } catch (const GpuError& e) {
      PyErr_SetString(gpu_error.ptr(), e.what());
    } catch (const OutputError& e) {
      PyErr_SetString(output_error.ptr(), e.what());
    }
  });

  python::bind_scenario(module);
  python::bind_flock(module);
  python::bind_plan(module);
  python::bind_study(module);
}
