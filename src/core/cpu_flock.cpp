#include "murmur/cpu_flock.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include "murmur/errors.hpp"
#include "murmur/grid.hpp"
#include "murmur/kdtree.hpp"

namespace murmur {

namespace {

// Below this many boids a step is too short for threads to pay for their start-up.
constexpr std::size_t kMinBoidsPerWorker = 1024;
// More workers than this gain nothing on the machines the project targets.
constexpr unsigned kMaxWorkers = 8;

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
                std::vector<Boid>& out, std::vector<NeighbourSums>* sums_out) {
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
                    other.species);
    }
    out[i] = inputs.steered && inputs.steered->id == self.id
                 ? steered_step(model, self, inputs.steered->velocity, inputs.env.world)
                 : finish_step(model, self, sums, inputs.env);
    if (sums_out != nullptr) (*sums_out)[i] = sums;
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
FlockState step_with(const Scenario& scenario, const FlockState& in, CpuStepTrace* trace,
                     const std::optional<SteeredBoid>& steered, const BirthRules& births,
                     const Search& search) {
  require_known_species(scenario, in);
  const std::vector<SpeciesModel> models = species_models(scenario);
  const StepInputs<Search> inputs{scenario, in, models, surroundings_of(scenario), steered, search};
  const std::size_t count = in.boids.size();
  FlockState next;
  next.boids.resize(count);
  std::vector<NeighbourSums>* sums_out = nullptr;
  if (trace != nullptr) {
    trace->sums.assign(count, NeighbourSums{});
    sums_out = &trace->sums;
  }

  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers =
      std::clamp<std::size_t>(count / kMinBoidsPerWorker, 1, std::min(hardware, kMaxWorkers));
  if (workers == 1) {
    step_range(inputs, 0, count, next.boids, sums_out);
    return settle_population(scenario, in, std::move(next.boids), births,
                           trace != nullptr ? &trace->births : nullptr);
  }
  std::vector<std::jthread> threads;  // joined on every exit path
  threads.reserve(workers - 1);
  const std::size_t chunk = (count + workers - 1) / workers;
  for (std::size_t w = 1; w < workers; ++w) {
    const std::size_t begin = std::min(count, w * chunk);
    const std::size_t end = std::min(count, begin + chunk);
    threads.emplace_back([&inputs, &next, sums_out, begin, end] {
      step_range(inputs, begin, end, next.boids, sums_out);
    });
  }
  step_range(inputs, 0, std::min(count, chunk), next.boids, sums_out);
  threads.clear();  // joins
  return settle_population(scenario, in, std::move(next.boids), births,
                           trace != nullptr ? &trace->births : nullptr);
}

std::vector<glm::vec2> positions_of(const FlockState& state) {
  std::vector<glm::vec2> positions;
  positions.reserve(state.boids.size());
  for (const Boid& b : state.boids) positions.push_back(b.pos);
  return positions;
}

}  // namespace

FlockState settle_population(const Scenario& scenario, const FlockState& before,
                             std::vector<Boid> stepped, const BirthRules& births,
                             std::vector<BirthRecord>* born_out) {
  if (born_out != nullptr) born_out->clear();
  const std::vector<SpeciesModel> models = species_models(scenario);
  FlockState next;
  next.step = before.step + 1;
  std::uint32_t next_id = before.resolved_next_id();
  next.boids.reserve(stepped.size());
  for (const Boid& b : stepped) {
    if (!dies_of_age(models[b.species], b.age)) next.boids.push_back(b);
  }
  if (births.any()) {
    // Parent order: (cell, id) of state t on the grid the GPU sorts by.
    const GridShape grid = grid_shape_for(scenario, scenario.capacity());
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;  // ((cell << 32) | id, index)
    order.reserve(before.boids.size());
    for (std::uint32_t i = 0; i < before.boids.size(); ++i) {
      const Boid& b = before.boids[i];
      order.emplace_back((std::uint64_t{grid.cell_of(b.pos)} << 32) | b.id, i);
    }
    std::sort(order.begin(), order.end());
    const std::uint64_t boids_before = before.boids.size();
    const std::uint64_t capacity = scenario.capacity();
    std::uint64_t birth_index = 0;
    std::uint32_t born = 0;
    for (const auto& [key, i] : order) {
      const std::uint32_t children = children_of(births, before.boids[i], before.step);
      for (std::uint32_t k = 0; k < children; ++k, ++birth_index) {
        if (boids_before + birth_index >= capacity) continue;
        const std::uint32_t child_id = next_id + static_cast<std::uint32_t>(birth_index);
        next.boids.push_back(child_of(births, stepped[i], k, child_id));
        if (born_out != nullptr) born_out->push_back({child_id, before.boids[i].id});
        ++born;
      }
    }
    next_id += born;
  }
  next.next_id = next_id;
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
                    const std::optional<SteeredBoid>& steered, const BirthRules& births) {
  const FlockState in = without_the_dead(scenario, state);
  const KdTree2D tree(positions_of(in));
  const auto search = [&tree](glm::vec2 center, float radius, Topology topology,
                              glm::vec2 world, std::vector<std::uint32_t>& out) {
    tree.query_radius(center, radius, topology, world, out);
  };
  return step_with(scenario, in, trace, steered, births, search);
}

FlockState cpu_step_brute_force(const Scenario& scenario, const FlockState& state,
                                CpuStepTrace* trace, const std::optional<SteeredBoid>& steered,
                                const BirthRules& births) {
  const FlockState in = without_the_dead(scenario, state);
  const std::vector<glm::vec2> positions = positions_of(in);
  const auto search = [&positions](glm::vec2 center, float radius, Topology topology,
                                   glm::vec2 world, std::vector<std::uint32_t>& out) {
    brute_force_radius(positions, center, radius, topology, world, out);
  };
  return step_with(scenario, in, trace, steered, births, search);
}

}  // namespace murmur
