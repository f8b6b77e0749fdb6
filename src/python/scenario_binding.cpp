// murmur.Scenario: a scenario file of either kind, its keys read and set by their
// `murmur sweep --vary` names (docs/python.md, "Scenarios").
#include <filesystem>
#include <string>

#include "bindings.hpp"
#include "murmur/base/errors.hpp"

namespace murmur::python {
namespace {

constexpr const char* kDefaultSource = "<string>";

std::string kind_name(const PyScenario& scenario) {
  return std::holds_alternative<FlockScenario>(scenario.value) ? "flock" : "plan";
}

std::string to_toml(const PyScenario& scenario) {
  return std::visit([](const auto& kind) { return scenario_to_toml(kind); }, scenario.value);
}

// `key = value` set as a --vary would set it, then the whole scenario checked: a refusal
// leaves the scenario as it was.
void set_key(PyScenario& scenario, const std::string& key, const std::string& value) {
  FlockScenario changed = flock_of(scenario, "Scenario.set");
  set_scenario_key(changed, key, value, "Scenario.set");
  validate_scenario(changed);
  scenario.value = std::move(changed);
}

}  // namespace

void bind_scenario(py::module_& module) {
  py::class_<PyScenario>(module, "Scenario",
                         "A scenario of either kind (a flock or a floor plan), checked as the "
                         "command line checks its files.")
      .def_static(
          "load",
          [](const std::filesystem::path& path) { return PyScenario{load_any_scenario(path)}; },
          py::arg("path"), "Reads and checks a scenario file.")
      .def_static(
          "from_toml",
          [](const std::string& text, const std::string& source) {
            return PyScenario{parse_any_scenario(text, source)};
          },
          py::arg("text"), py::arg("source") = kDefaultSource,
          "Reads and checks a scenario from TOML text; `source` names it in messages.")
      .def("to_toml", &to_toml, "The scenario as TOML that reads back to the same values.")
      .def("_set", &set_key, py::arg("key"), py::arg("value"))
      .def(
          "_get",
          [](const PyScenario& scenario, const std::string& key) {
            return scenario_key_text(flock_of(scenario, "Scenario.get"), key);
          },
          py::arg("key"))
      .def_property_readonly("kind", &kind_name, "'flock' or 'plan'.")
      .def_property_readonly(
          "source", [](const PyScenario& scenario) { return common_of(scenario.value).source; },
          "The file (or name) the scenario was read from.")
      .def_property(
          "seed", [](const PyScenario& scenario) { return common_of(scenario.value).world.seed; },
          [](PyScenario& scenario, std::uint64_t seed) {
            common_of(scenario.value).world.seed = seed;
          },
          "The [world] seed.")
      .def("copy", [](const PyScenario& scenario) { return scenario; })
      .def("__copy__", [](const PyScenario& scenario) { return scenario; })
      .def("__deepcopy__", [](const PyScenario& scenario, py::dict) { return scenario; })
      .def("__repr__",
           [](const PyScenario& scenario) {
             return "<murmur.Scenario " + kind_name(scenario) + " '" +
                    common_of(scenario.value).source + "'>";
           })
      // Pickled as its TOML and source, so that a scenario travels to sweep workers.
      .def(py::pickle(
          [](const PyScenario& scenario) {
            return py::make_tuple(to_toml(scenario), common_of(scenario.value).source);
          },
          [](const py::tuple& state) {
            return PyScenario{parse_any_scenario(state[0].cast<std::string>(),
                                                 state[1].cast<std::string>())};
          }));
}

}  // namespace murmur::python
