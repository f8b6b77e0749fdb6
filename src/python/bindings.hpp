#pragma once
// The Python module `murmur._murmur` (docs/python.md): what its files share. Each file binds one
// part: scenarios, flocks, plans, the harness and the parameter study.
// Every file sees the same type casters (one that did not would bind the same type otherwise).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <string>
#include <variant>

#include "murmur/flock/gpu/simulation.hpp"
#include "murmur/scenario/scenario.hpp"

namespace murmur::python {

namespace py = pybind11;

// A scenario of either kind, as Python holds it.
struct PyScenario {
  AnyScenario value;
};

// The flock kind of `scenario`, or a ScenarioError naming `what` needs one.
const FlockScenario& flock_of(const PyScenario& scenario, const std::string& what);

// The backend a Python call names: "gpu", "gpu-naive" or "cpu" (the --backend words), or a
// ScenarioError.
FlockBackend flock_backend_named(const std::string& name);

// A RuntimeWarning with density_warning's line, when `scenario` has one (docs/gpu.md, "Density").
void warn_if_dense(const FlockScenario& scenario);

void bind_scenario(py::module_& module);
void bind_flock(py::module_& module);
void bind_plan(py::module_& module);
void bind_study(py::module_& module);

}  // namespace murmur::python
