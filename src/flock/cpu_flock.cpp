// The CPU reference's step (docs/model.md, "One step"): each boid's neighbours found by the
// k-d tree (or by brute force, the second oracle), added in index order, and the population's
// events settled in one pass.
//
// Sections, in order: the searches and one range of boids' steps (metric neighbours within the
// radius, topological ones the k nearest); grazing per boid; step_with, which both steps share;
// the parent order and catching; settle_population; the public steps.
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

// `Search` appends the candidate neighbours of one observer, in the world's dimension V:
//   search.within(center, radius, topology, world, out): a metric observer's, a superset of
//     the visible set (add_neighbour re-applies the exact predicate); both searches below
//     return exactly the within-radius set;
//   search.nearest(center, radius, k, topology, world, ids, admits, out): a topological
//     observer's k nearest admitted (KdTree::query_nearest).
template <ModelVector V, class Search>
struct StepInputs {
  const Scenario& scenario;
  const FlockState& in;
  const std::vector<SpeciesModel>& models;
  SurroundingsIn<V> env;
  const std::optional<SteeredBoid>& steered;
  const std::vector<float>& grazed;  // g_i per boid of `in`
  const Search& search;
  const std::vector<std::uint32_t>& ids;  // the id of each boid of `in`
};

template <ModelVector V>
using TreeIn = KdTree<V::length()>;

// The k-d tree's searches (cpu_step).
template <ModelVector V>
struct TreeSearch {
  const TreeIn<V>& tree;
  void within(V center, float radius, Topology topology, V world,
              std::vector<std::uint32_t>& out) const {
    tree.query_radius(center, radius, topology, world, out);
  }
  void nearest(V center, float radius, std::uint32_t k, Topology topology, V world,
               std::span<const std::uint32_t> ids, const typename TreeIn<V>::Admits& admits,
               std::vector<std::uint32_t>& out) const {
    tree.query_nearest(center, radius, k, topology, world, ids, admits, out);
  }
};

// Every pair (cpu_step_brute_force).
template <ModelVector V>
struct BruteForceSearch {
  std::span<const V> positions;
  void within(V center, float radius, Topology topology, V world,
              std::vector<std::uint32_t>& out) const {
    brute_force_radius(positions, center, radius, topology, world, out);
  }
  void nearest(V center, float radius, std::uint32_t k, Topology topology, V world,
               std::span<const std::uint32_t> ids, const typename TreeIn<V>::Admits& admits,
               std::vector<std::uint32_t>& out) const {
    brute_force_nearest(positions, center, radius, k, topology, world, ids, admits, out);
  }
};

// What settle_population reads of a boid's sums: a 3D world has no ecosystem, so its counts
// are all there is to keep (the trace's).
NeighbourSums settled_sums(const NeighbourSums& sums) { return sums; }
NeighbourSums settled_sums(const NeighbourSums3& sums) {
  NeighbourSums counts;
  counts.visible = sums.visible;
  counts.flock = sums.flock;
  counts.separating = sums.separating;
  counts.attracting = sums.attracting;
  return counts;
}

// Steps boids [begin, end) of `inputs.in`. Each boid's result depends only on state t, and its
// neighbours are added in ascending index order, so the bits do not depend on the search
// structure, on how the boids are split between workers, or on the worker count.
template <ModelVector V, class Search>
void step_range(const StepInputs<V, Search>& inputs, std::size_t begin, std::size_t end,
                std::vector<Boid>& out, std::vector<NeighbourSums>& sums_out) {
  const std::vector<Boid>& boids = inputs.in.boids;
  std::vector<std::uint32_t> candidates;
  for (std::size_t i = begin; i < end; ++i) {
    const Boid& self = boids[i];
    const V self_pos = position_in<V>(self);
    const V self_vel = velocity_in<V>(self);
    const SpeciesModel& model = inputs.models[self.species];
    const SpeciesParams& params = inputs.scenario.species[self.species];
    candidates.clear();
    if (model.neighbours == Neighbours::Topological) {
      // The k nearest of those it sees, itself left out before choosing (docs/model.md,
      // "Topological neighbours"), then added in index order like any neighbours.
      const auto sees = [&](std::uint32_t j, V d) {
        return j != i && in_view(model, d, self_vel);
      };
      inputs.search.nearest(self_pos, params.perception_radius, neighbour_limit(model),
                            model.topology, inputs.env.world, inputs.ids, sees, candidates);
    } else {
      inputs.search.within(self_pos, params.perception_radius, model.topology, inputs.env.world,
                           candidates);
    }
    std::sort(candidates.begin(), candidates.end());
    NeighbourSumsIn<V> sums;
    for (const std::uint32_t j : candidates) {
      if (j == i) continue;
      const Boid& other = boids[j];
      add_neighbour(sums, model, self_vel,
                    displacement(self_pos, position_in<V>(other), model.topology,
                                 inputs.env.world),
                    velocity_in<V>(other), other.species, other.id);
    }
    if (model.rule != Rule::Boids) {
      out[i] = rule_next_state(model, self, sums, inputs.env, inputs.steered,
                               inputs.scenario.world.seed, inputs.in.step);
    } else if constexpr (V::length() == 2) {
      out[i] = ecosystem_next_state(model, self, sums, inputs.env, inputs.steered,
                                    inputs.grazed[i]);
    } else {
      out[i] = next_state(model, self, steering_acc(model, self, sums, inputs.env), inputs.env,
                          inputs.steered);
    }
    sums_out[i] = settled_sums(sums);
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

// Grazing (ecosystem step 4): n_c, the grazers of state t in each food cell.
std::vector<std::uint32_t> grazers_per_cell(const Scenario& scenario, const FlockState& before,
                                            const std::vector<SpeciesModel>& models) {
  const GridShape grid = food_grid_shape(*scenario.food, scenario.size());
  std::vector<std::uint32_t> grazers(grid.cell_count(), 0);
  for (const Boid& b : before.boids) {
    if (models[b.species].grazes) ++grazers[grid.cell_of(b.pos)];
  }
  return grazers;
}

// g_i: what the grazer `self` eats from its food cell of the field `food` (0 for a non-grazer).
float grazed_by(const SpeciesModel& m, const Boid& self, const GridShape& grid,
                std::span<const float> food, std::span<const std::uint32_t> grazers, float bite) {
  if (!m.grazes) return 0.0f;
  const std::uint32_t cell = grid.cell_of(self.pos);
  return grazed_amount(grazers[cell], food[cell], bite);
}

// g_i of every boid of state t `in` (its food field resolved); all 0 without a field.
std::vector<float> grazed_per_boid(const Scenario& scenario, const FlockState& in,
                                   const std::vector<SpeciesModel>& models) {
  std::vector<float> grazed(in.boids.size(), 0.0f);
  if (!scenario.food) return grazed;
  const GridShape grid = food_grid_shape(*scenario.food, scenario.size());
  // A field of another size is food_field_of's input error, raised before anything reads it.
  if (in.food.size() != grid.cell_count()) static_cast<void>(food_field_of(scenario, in));
  const std::vector<std::uint32_t> grazers = grazers_per_cell(scenario, in, models);
  for (std::size_t i = 0; i < in.boids.size(); ++i) {
    grazed[i] = grazed_by(models[in.boids[i].species], in.boids[i], grid, in.food, grazers,
                          scenario.food->bite);
  }
  return grazed;
}

template <ModelVector V, class Search>
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
  const std::vector<float> grazed = grazed_per_boid(scenario, in, models);
  std::vector<std::uint32_t> ids;
  ids.reserve(in.boids.size());
  for (const Boid& b : in.boids) ids.push_back(b.id);
  SurroundingsIn<V> env;
  if constexpr (V::length() == 2) env = surroundings_of(scenario, in.food);
  else env = surroundings_3d(scenario);
  const StepInputs<V, Search> inputs{scenario, in, models, env, steered, grazed, search, ids};
  const std::size_t count = in.boids.size();
  FlockState next;
  next.boids.resize(count);
  std::vector<NeighbourSums> sums(count);
  std::vector<NeighbourSums>& sums_out = sums;

  for_each_chunk(count, workers_for(count, requested_workers, kMinBoidsPerWorker),
                 [&](std::size_t begin, std::size_t end) {
                   step_range(inputs, begin, end, next.boids, sums_out);
                 });
  FlockState after =
      settle_population(scenario, in, std::move(next.boids), sums, grazed, births, trace);
  if (trace != nullptr) trace->sums = std::move(sums);
  return after;
}

template <ModelVector V>
std::vector<V> positions_in(const FlockState& state) {
  std::vector<V> positions;
  positions.reserve(state.boids.size());
  for (const Boid& b : state.boids) positions.push_back(position_in<V>(b));
  return positions;
}

template <ModelVector V>
FlockState tree_step(const Scenario& scenario, const FlockState& in, CpuStepTrace* trace,
                     const std::optional<SteeredBoid>& steered, const BirthRules& births,
                     unsigned workers) {
  const TreeIn<V> tree(positions_in<V>(in));
  return step_with<V>(scenario, in, trace, steered, births, workers, TreeSearch<V>{tree});
}

template <ModelVector V>
FlockState brute_force_step(const Scenario& scenario, const FlockState& in, CpuStepTrace* trace,
                            const std::optional<SteeredBoid>& steered, const BirthRules& births,
                            unsigned workers) {
  const std::vector<V> positions = positions_in<V>(in);
  return step_with<V>(scenario, in, trace, steered, births, workers,
                      BruteForceSearch<V>{positions});
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
    keyed.emplace_back((std::uint64_t{grid.cell_of(b)} << 32) | b.id, i);
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

// Whether a boid whose fate the step decided and whose age after it is `age` is absent from
// state t+1: eaten, starved, or dead of age.
bool dies_in_step(const SpeciesModel& m, Fate fate, std::uint32_t age) {
  return fate != Fate::Lives || dies_of_age(m, age);
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
                             const std::vector<float>& grazed, const BirthRules& births,
                             CpuStepTrace* trace) {
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
  if (scenario.food) {
    const std::vector<std::uint32_t> grazers = grazers_per_cell(scenario, before, models);
    for (std::size_t c = 0; c < next.food.size(); ++c) {
      next.food[c] = food_after_step(grazers[c], next.food[c], *scenario.food);
    }
  }
  std::vector<bool> survives(count, false);
  std::vector<std::uint32_t> survivors_of(species_count, 0);  // L'_s
  for (std::size_t i = 0; i < count; ++i) {
    const SpeciesModel& m = models[before.boids[i].species];
    BoidEvents& e = events[i];
    e.strikes = strikes(m, sums[i]);
    e.ate_prey = ate_prey[i];
    e.food_eaten = grazed[i];
    e.speed = speed_of(stepped[i].vel);
    e.energy_after = energy_after_eating(m, stepped[i].energy, ate_prey[i], &e.energy_uncapped);
    stepped[i].energy = e.energy_after;
    if (eaten_by[i]) {
      e.fate = Fate::Eaten;
      e.eaten_by = before.boids[*eaten_by[i]].id;
    } else if (starves(m, e.energy_after)) {
      e.fate = Fate::Starved;
    } else if (dies_of_age(m, stepped[i].age)) {
      e.fate = Fate::DiedOfAge;
    }
    survives[i] = !dies_in_step(m, e.fate, stepped[i].age);
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
        children.push_back(child_by_energy(m, stepped[i], child_id, scenario.world.seed,
                                           before.step, scenario.size()));
        stepped[i].energy = parent_share(stepped[i].energy);
      }
      events[i].child = ChildFate::Born;
      born_records.push_back({child_id, parent.id});
      ++next.totals[parent.species].born;
    }
  }
  // Counted before the wrap could matter: a step whose children would take next_id past
  // 2^32 - 1 (their ids wrapped above onto ids that may be alive) is refused whole.
  require_ids_for_births(next.step, next_id, born_records.size());
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
    for (const float g : grazed) trace->food_eaten += g;
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
  if (is_3d(scenario)) return tree_step<glm::vec3>(scenario, in, trace, steered, births, workers);
  return tree_step<glm::vec2>(scenario, in, trace, steered, births, workers);
}

namespace {

template <ModelVector V>
MemoryNeed step_memory_in(const Scenario& scenario) {
  const std::uint64_t per_boid =
      sizeof(Boid)                                      // the living boids (without_the_dead)
      + sizeof(V) + KdTree<V::length()>::bytes_per_point()  // positions_in and the tree
      + sizeof(float) + sizeof(std::uint32_t)          // grazed_per_boid, the ids
      + sizeof(Boid) + sizeof(NeighbourSumsIn<V>)      // the stepped records and their sums
      + sizeof(BoidEvents) + sizeof(std::optional<std::uint32_t>)  // settle_population: events, eaten_by
      + 2 * sizeof(bool);  // who ate prey, who survives (vector<bool>: a bit each, counted a byte)
  const std::uint64_t food_cells =
      scenario.food ? food_grid_shape(*scenario.food, scenario.size()).cell_count() : 0;
  // The threads that share the step (the first is the caller's) each take a stack.
  const std::size_t workers = workers_for(scenario.capacity(), 0, kMinBoidsPerWorker);
  return {sizeof(std::uint32_t) * food_cells  // grazers_per_cell
              + (workers - 1) * thread_stack_bytes(),
          per_boid};
}

}  // namespace

MemoryNeed cpu_step_memory(const Scenario& scenario) {
  return is_3d(scenario) ? step_memory_in<glm::vec3>(scenario) : step_memory_in<glm::vec2>(scenario);
}

FlockState cpu_step_brute_force(const Scenario& scenario, const FlockState& state,
                                CpuStepTrace* trace, const std::optional<SteeredBoid>& steered,
                                const BirthRules& births, unsigned workers) {
  const FlockState in = without_the_dead(scenario, state);
  if (is_3d(scenario)) {
    return brute_force_step<glm::vec3>(scenario, in, trace, steered, births, workers);
  }
  return brute_force_step<glm::vec2>(scenario, in, trace, steered, births, workers);
}

}  // namespace murmur
