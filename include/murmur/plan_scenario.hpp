#pragma once
// Which command runs a scenario. A plan scenario (one with a [plan] table, docs/floor-plan.md)
// runs only in `murmur plan` until the viewer, the recorder and the GPU learn it; the flock's
// commands refuse it, and `murmur plan` refuses a flock, each with one line naming the file.
#include "murmur/scenario.hpp"

namespace murmur {

// Throws InputError "<source>: a plan scenario ([plan] table): plan scenarios run with murmur
// plan" when `scenario` has a [plan] table.
void require_flock_scenario(const Scenario& scenario);
// Throws InputError "<source>: no [plan] table: murmur plan draws plan scenarios ..." when
// `scenario` has none.
void require_plan_scenario(const Scenario& scenario);

}  // namespace murmur
