// Which command runs a scenario (include/murmur/plan_scenario.hpp).
#include "murmur/plan_scenario.hpp"

#include "murmur/errors.hpp"

namespace murmur {

void require_flock_scenario(const Scenario& scenario) {
  if (scenario.plan) {
    throw InputError(scenario.source +
                     ": a plan scenario ([plan] table): plan scenarios run with murmur plan");
  }
}

void require_plan_scenario(const Scenario& scenario) {
  if (!scenario.plan) {
    throw InputError(scenario.source +
                     ": no [plan] table: murmur plan draws plan scenarios (docs/floor-plan.md)");
  }
}

}  // namespace murmur
