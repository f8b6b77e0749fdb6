#include "murmur/flock/cpu_flock.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "murmur/base/errors.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/flock/kdtree.hpp"
#include "murmur/base/parallel.hpp"

namespace murmur {

namespace {

// Below this many boids a step is too short for threads to pay for their start-up.
constexpr std::size_t kMinBoidsPerWorker = 1024;

// `Search` appends the candidate neighbours of one observer: search(center, radius, topology,
// world, out). A superset of the visible set would do (add_neighbour re-applies the exact
// predicate); both searches below return exactly the within-radius set.
template <class Search>
struct StepInputs {
  const Scenario& scenario;
  const FlockState& in;
  const std::vector<SpeciesModel>& models;
  Surroundings env;
  const std::optional<SteeredBoid>& steered;
  const Search& search;
};

// Steps boids [begin, end) of `inputs.in`. Each boid's result depends only on state t, and its
// neighbours are added in ascending index order, so the bits do not depend on the search
// structure, on how the boids are split between workers, or on the worker count.
template <class Search>
void step_range(const StepInputs<Search>& inputs, std::size_t begin, std::size_t end,
                std::vector<Boid>& out, std::vector<NeighbourSums>& sums_out) {
  const std::vector<Boid>& boids = inputs.in.boids;
  std::vector<std::uint32_t> candidates;
  for (std::size_t i = begin; i < end; ++i) {
    const Boid& self = boids[i];
    const SpeciesModel& model = inputs.models[self.species];
    const SpeciesParams& params = inputs.scenario.species[self.species];
    candidates.clear();
    inputs.search(self.pos, params.perception_radius, model.topology, inputs.env.world, candidates);
    std::sort(candidates.begin(), candidates.end());
    NeighbourSums sums;
    for (const std::uint32_t j : candidates) {
      if (j == i) continue;
      const Boid& other = boids[j];
      add_neighbour(sums, model, self.vel,
                    displacement(self.pos, other.pos, model.topology, inputs.env.world), other.vel,
                    other.species, other.id);
    }
    out[i] = inputs.steered && inputs.steered->id == self.id
                 ? steered_step(model, self, inputs.steered->velocity, inputs.env.world)
                 : finish_step(model, self, sums, inputs.env);
    sums_out[i] = sums;
  }
}

// Checked once, before any worker starts: the workers index species without checks.
void require_known_species(const Scenario& scenario, const FlockState& in) {
  for (const Boid& b : in.boids) {
    if (b.species >= scenario.species.size()) {
      const std::string accepted =
          scenario.species.empty()
              ? std::string("it has no species")
              : "accepted 0 to " + std::to_string(scenario.species.size() - 1);
      throw InputError("state: boid " + std::to_string(b.id) + " has species " +
                       std::to_string(b.species) + "; scenario '" + scenario.source + "': " +
                       accepted);
    }
  }
}

template <class Search>
FlockState step_with(const Scenario& scenario, const FlockState& state, CpuStepTrace* trace,
                     const std::optional<SteeredBoid>& steered, const BirthRules& births,
                     unsigned requested_workers, const Search& search) {
  require_known_species(scenario, state);
  FlockState in_with_food;
  const FlockState* resolved = &state;
  if (scenario.food && state.food.empty()) {
    in_with_food = state;
    in_with_food.food = food_field_of(scenario, state);
    resolved = &in_with_food;
  }
  const FlockState& in = *resolved;
  const std::vector<SpeciesModel> models = species_models(scenario);
  const StepInputs<Search> inputs{scenario, in, models, surroundings_of(scenario, in.food),
                                  steered, search};
  const std::size_t count = in.boids.size();
  FlockState next;
  next.boids.resize(count);
  std::vector<NeighbourSums> sums(count);
  std::vector<NeighbourSums>& sums_out = sums;

  for_each_chunk(count, workers_for(count, requested_workers, kMinBoidsPerWorker),
                 [&](std::size_t begin, std::size_t end) {
                   step_range(inputs, begin, end, next.boids, sums_out);
                 });
  FlockState after = settle_population(scenario, in, std::move(next.boids), sums, births, trace);
  if (trace != nullptr) trace->sums = std::move(sums);
  return after;
}

std::vector<glm::vec2> positions_of(const FlockState& state) {
  std::vector<glm::vec2> positions;
  positions.reserve(state.boids.size());
  for (const Boid& b : state.boids) positions.push_back(b.pos);
  return positions;
}

}  // namespace

namespace {

// Parent order (docs/model.md, "Births"): the indices of state t sorted by (cell, id) on the
// grid the GPU sorts by.
std::vector<std::uint32_t> parent_order(const Scenario& scenario, const FlockState& before) {
  const GridShape grid = grid_shape_for(scenario, scenario.capacity());
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;  // ((cell << 32) | id, index)
  keyed.reserve(before.boids.size());
  for (std::uint32_t i = 0; i < before.boids.size(); ++i) {
    const Boid& b = before.boids[i];
    keyed.emplace_back((std::uint64_t{grid.cell_of(b.pos)} << 32) | b.id, i);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::uint32_t> order;
  order.reserve(keyed.size());
  for (const auto& entry : keyed) order.push_back(entry.second);
  return order;
}

// Catching (ecosystem step 3): per boid of state t, the index of the hunter that eats it, or
// none. The striker with the least dist_sq wins, ties to the smaller hunter id, so the result
// does not depend on the order of the hunters.
std::vector<std::optional<std::uint32_t>> resolve_strikes(
    const FlockState& before, const std::vector<SpeciesModel>& models,
    const std::vector<NeighbourSums>& sums) {
  const std::size_t count = before.boids.size();
  std::vector<std::optional<std::uint32_t>> eaten_by(count);
  std::unordered_map<std::uint32_t, std::uint32_t> index_of_id;
  index_of_id.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) index_of_id.emplace(before.boids[i].id, i);
  for (std::uint32_t h = 0; h < count; ++h) {
    if (!strikes(models[before.boids[h].species], sums[h])) continue;
    const std::uint32_t prey = index_of_id.at(sums[h].prey_id);
    std::optional<std::uint32_t>& winner = eaten_by[prey];
    const bool better =
        !winner || sums[h].prey_dist_sq < sums[*winner].prey_dist_sq ||
        (sums[h].prey_dist_sq == sums[*winner].prey_dist_sq &&
         before.boids[h].id < before.boids[*winner].id);
    if (better) winner = h;
  }
  return eaten_by;
}

// Grazing and regrowth (ecosystem step 4): `food` is stepped in place; returns g_i per boid.
std::vector<float> graze_field(const Scenario& scenario, const FlockState& before,
                               const std::vector<SpeciesModel>& models, std::vector<float>& food) {
  std::vector<float> eaten(before.boids.size(), 0.0f);
  if (!scenario.food) return eaten;
  const GridShape grid = food_grid_shape(*scenario.food, scenario.size());
  std::vector<std::uint32_t> cell_of(before.boids.size(), 0);
  std::vector<std::uint32_t> grazers(food.size(), 0);
  for (std::size_t i = 0; i < before.boids.size(); ++i) {
    if (!models[before.boids[i].species].grazes) continue;
    cell_of[i] = grid.cell_of(before.boids[i].pos);
    ++grazers[cell_of[i]];
  }
  std::vector<float> share(food.size(), 0.0f);
  for (std::size_t c = 0; c < food.size(); ++c) {
    if (grazers[c] == 0) continue;
    const Grazing grazing = graze(food[c], grazers[c], scenario.food->bite);
    share[c] = grazing.eaten_each;
    food[c] = grazing.left;
  }
  for (std::size_t i = 0; i < before.boids.size(); ++i) {
    if (models[before.boids[i].species].grazes) eaten[i] = share[cell_of[i]];
  }
  for (float& amount : food) amount = regrown(amount, *scenario.food);
  return eaten;
}

}  // namespace

std::vector<float> food_field_of(const Scenario& scenario, const FlockState& state) {
  if (!scenario.food) return {};
  if (state.food.empty()) return initial_food(scenario);
  const std::uint32_t cells = food_grid_shape(*scenario.food, scenario.size()).cell_count();
  if (state.food.size() != cells) {
    throw InputError("state: a food field of " + std::to_string(state.food.size()) +
                     " cells; scenario '" + scenario.source + "' has " + std::to_string(cells));
  }
  return state.food;
}

FlockState settle_population(const Scenario& scenario, const FlockState& before,
                             std::vector<Boid> stepped, const std::vector<NeighbourSums>& sums,
                             const BirthRules& births, CpuStepTrace* trace) {
  const std::vector<SpeciesModel> models = species_models(scenario);
  const std::size_t count = before.boids.size();
  const std::size_t species_count = scenario.species.size();
  FlockState next;
  next.step = before.step + 1;
  next.food = food_field_of(scenario, before);
  next.totals = before.totals;
  next.totals.resize(species_count);
  std::vector<BoidEvents> events(count);

  // Steps 3-6: catching, grazing, energy, deaths.
  const std::vector<std::optional<std::uint32_t>> eaten_by = resolve_strikes(before, models, sums);
  std::vector<bool> ate_prey(count, false);
  for (std::size_t p = 0; p < count; ++p) {
    if (eaten_by[p]) ate_prey[*eaten_by[p]] = true;
  }
  const std::vector<float> food_eaten = graze_field(scenario, before, models, next.food);
  std::vector<bool> survives(count, false);
  std::vector<std::uint32_t> survivors_of(species_count, 0);  // L'_s
  for (std::size_t i = 0; i < count; ++i) {
    const SpeciesModel& m = models[before.boids[i].species];
    BoidEvents& e = events[i];
    e.strikes = strikes(m, sums[i]);
    e.ate_prey = ate_prey[i];
    e.food_eaten = food_eaten[i];
    e.speed = speed_of(stepped[i].vel);
    e.energy_after = energy_after(m, before.boids[i].energy, stepped[i].vel, food_eaten[i],
                                  ate_prey[i], &e.energy_uncapped);
    stepped[i].energy = e.energy_after;
    if (eaten_by[i]) {
      e.fate = Fate::Eaten;
      e.eaten_by = before.boids[*eaten_by[i]].id;
    } else if (m.has_energy && e.energy_after <= 0.0f) {
      e.fate = Fate::Starved;
    } else if (dies_of_age(m, stepped[i].age)) {
      e.fate = Fate::DiedOfAge;
    }
    survives[i] = e.fate == Fate::Lives;
    if (survives[i]) {
      ++survivors_of[before.boids[i].species];
    } else {
      ++next.totals[before.boids[i].species].died;
    }
  }

  // Step 7: births, by the test-only budding rule or by energy, numbered in parent order.
  std::uint32_t next_id = before.resolved_next_id();
  std::vector<std::uint32_t> wanting_before(species_count, 0);  // w_i, per species
  std::vector<std::uint64_t> dropped(species_count, 0);
  std::vector<Boid> children;
  std::vector<BirthRecord> born_records;
  const std::uint64_t boids_before = count;
  const std::uint64_t capacity = scenario.capacity();
  std::uint64_t birth_index = 0;
  bool any_parent = births.any();
  for (std::size_t i = 0; i < count && !any_parent; ++i) {
    any_parent = survives[i] && wants_child(models[before.boids[i].species], stepped[i].energy);
  }
  // Without a would-be parent the order is not needed: a plain flock pays no sort.
  const std::vector<std::uint32_t> order =
      any_parent ? parent_order(scenario, before) : std::vector<std::uint32_t>{};
  for (const std::uint32_t i : order) {
    const Boid& parent = before.boids[i];
    const SpeciesModel& m = models[parent.species];
    std::uint32_t wanted = 0;
    if (births.any()) {
      wanted = children_of(births, parent, before.step);
    } else if (survives[i] && wants_child(m, stepped[i].energy)) {
      const std::uint64_t cap = m.max_count;
      const std::uint64_t before_me = survivors_of[parent.species] + wanting_before[parent.species];
      const bool over_cap = cap > 0 && before_me >= cap;
      ++wanting_before[parent.species];
      if (over_cap) {
        events[i].child = ChildFate::DroppedAtMaxCount;
        ++dropped[parent.species];
        continue;
      }
      wanted = 1;
    }
    for (std::uint32_t k = 0; k < wanted; ++k, ++birth_index) {
      if (boids_before + birth_index >= capacity) {
        events[i].child = ChildFate::DroppedAtCapacity;
        ++dropped[parent.species];
        continue;
      }
      const std::uint32_t child_id = next_id + static_cast<std::uint32_t>(birth_index);
      if (births.any()) {
        children.push_back(child_of(births, stepped[i], k, child_id));
      } else {
        const EnergySplit split = split_energy(stepped[i].energy);
        stepped[i].energy = split.parent;
        children.push_back(child_by_energy(m, stepped[i], child_id, split.child,
                                           scenario.world.seed, before.step, scenario.size()));
      }
      events[i].child = ChildFate::Born;
      born_records.push_back({child_id, parent.id});
      ++next.totals[parent.species].born;
    }
  }
  next_id += static_cast<std::uint32_t>(born_records.size());
  for (std::size_t s = 0; s < species_count; ++s) next.totals[s].dropped += dropped[s];

  next.boids.reserve(count + children.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (survives[i]) next.boids.push_back(stepped[i]);
  }
  next.boids.insert(next.boids.end(), children.begin(), children.end());
  next.next_id = next_id;
  if (trace != nullptr) {
    trace->events = std::move(events);
    trace->births = std::move(born_records);
    trace->dropped = std::move(dropped);
    trace->food_eaten = 0.0;
    for (const float g : food_eaten) trace->food_eaten += g;
  }
  return next;
}

FlockState without_the_dead(const Scenario& scenario, const FlockState& state) {
  require_known_species(scenario, state);
  const std::vector<SpeciesModel> models = species_models(scenario);
  FlockState living = state;
  std::erase_if(living.boids, [&](const Boid& b) { return dies_of_age(models[b.species], b.age); });
  return living;
}

FlockState cpu_step(const Scenario& scenario, const FlockState& state, CpuStepTrace* trace,
                    const std::optional<SteeredBoid>& steered, const BirthRules& births,
                    unsigned workers) {
  const FlockState in = without_the_dead(scenario, state);
  const KdTree2D tree(positions_of(in));
  const auto search = [&tree](glm::vec2 center, float radius, Topology topology,
                              glm::vec2 world, std::vector<std::uint32_t>& out) {
    tree.query_radius(center, radius, topology, world, out);
  };
  return step_with(scenario, in, trace, steered, births, workers, search);
}

FlockState cpu_step_brute_force(const Scenario& scenario, const FlockState& state,
                                CpuStepTrace* trace, const std::optional<SteeredBoid>& steered,
                                const BirthRules& births, unsigned workers) {
  const FlockState in = without_the_dead(scenario, state);
  const std::vector<glm::vec2> positions = positions_of(in);
  const auto search = [&positions](glm::vec2 center, float radius, Topology topology,
                                   glm::vec2 world, std::vector<std::uint32_t>& out) {
    brute_force_radius(positions, center, radius, topology, world, out);
  };
  return step_with(scenario, in, trace, steered, births, workers, search);
}

}  // namespace murmur
