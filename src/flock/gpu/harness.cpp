#include "murmur/flock/gpu/harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "murmur/base/errors.hpp"
#include "murmur/flock/agreement.hpp"
#include "murmur/flock/cpu_flock.hpp"
#include "murmur/flock/stats.hpp"

namespace murmur {

namespace {

std::vector<ObservedCounts> observed_counts(const std::vector<GpuNeighbourCounts>& gpu) {
  std::vector<ObservedCounts> out;
  out.reserve(gpu.size());
  for (const GpuNeighbourCounts& c : gpu) out.push_back({c.id, c.visible, c.flock, c.separating});
  return out;
}

void merge(NeighbourCheck& total, const NeighbourCheck& step) {
  total.boids += step.boids;
  total.mismatched_boids += step.mismatched_boids;
  total.ambiguous_pairs += step.ambiguous_pairs;
  total.ambiguous_boids += step.ambiguous_boids;
  for (const std::string& m : step.first_mismatches) {
    if (total.first_mismatches.size() < 5) total.first_mismatches.push_back(m);
  }
}

void merge(LockstepCheck& total, const LockstepCheck& step, std::vector<double>& v_medians,
           std::vector<double>& p_medians) {
  total.boids += step.boids;
  total.skipped_ambiguous += step.skipped_ambiguous;
  total.deaths += step.deaths;
  total.births += step.births;
  total.ambiguous_events += step.ambiguous_events;
  total.event_mismatches += step.event_mismatches;
  total.failed += step.failed;
  total.max_velocity_error = std::max(total.max_velocity_error, step.max_velocity_error);
  total.max_position_error = std::max(total.max_position_error, step.max_position_error);
  total.worst_error_over_tolerance =
      std::max(total.worst_error_over_tolerance, step.worst_error_over_tolerance);
  v_medians.push_back(step.median_velocity_error);
  p_medians.push_back(step.median_position_error);
  for (const std::string& f : step.first_failures) {
    if (total.first_failures.size() < 5) total.first_failures.push_back(f);
  }
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Statistics agree when the GPU's value is within this many times the spread of the CPU
// ensemble, plus a floor for runs that have not diverged yet (spread ~ 0).
constexpr double kStatSpreadFactor = 4.0;
constexpr double kStatFloor = 1e-4;

StatAgreement agreement(const std::string& name, double gpu, const std::vector<double>& cpu_runs,
                        double scale) {
  const auto [lo, hi] = std::minmax_element(cpu_runs.begin(), cpu_runs.end());
  StatAgreement s;
  s.name = name;
  s.gpu = gpu;
  s.cpu = cpu_runs.front();
  s.spread = *hi - *lo;
  s.limit = kStatSpreadFactor * s.spread + kStatFloor * scale;
  return s;
}

// Once an event of the CPU run fell within its rounding band, the GPU may have decided it the
// other way just before a sample, too late for the envelope runs to spread: its population
// may then differ by this many boids more than the ensemble's spread allows.
constexpr double kFlippedEventBoids = 1.0;

// The events of one CPU step (`trace`, from `before`) whose e' lies within energy_band of its
// threshold: starvation at 0, a child at reproduce_energy.
std::uint32_t events_within_band(const Scenario& scenario, const FlockState& before,
                                 const CpuStepTrace& trace) {
  std::uint32_t count = 0;
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const SpeciesParams& species = scenario.species[before.boids[i].species];
    if (species.energy_max <= 0.0f) continue;
    const double band = energy_band(scenario, before.boids[i].species);
    const double energy = trace.events[i].energy_after;
    const bool near_starving = std::abs(energy) <= band;
    const bool near_splitting =
        species.reproduce_energy > 0.0f && std::abs(energy - species.reproduce_energy) <= band;
    if (near_starving || near_splitting) ++count;
  }
  return count;
}

}  // namespace

bool FreeRunCheck::passed() const {
  for (const DriftSample& s : samples) {
    if (!(s.gpu_vs_cpu <= s.limit)) return false;
  }
  for (const StatAgreement& s : stats) {
    if (!s.passed()) return false;
  }
  return true;
}

CompareReport run_comparison(const Scenario& scenario, const FlockState& start,
                             const CompareOptions& options) {
  CompareReport report;
  // Boids already past their max_age are dead before the first step, on both sides.
  FlockState initial = without_the_dead(scenario, start);
  initial.sort_by_id();
  report.boids = static_cast<std::uint32_t>(initial.boids.size());

  GpuFlock gpu(scenario, initial, options.search);
  // None keeps the flock's own: MURMUR_TEST_GPU_FAULT's, which `murmur compare` is tested with.
  if (options.fault != GpuFault::None) gpu.set_fault(options.fault);
  gpu.set_steered(options.steered);
  gpu.set_birth_rules(options.births);

  // Lockstep: every step starts both sides from the CPU's state.
  std::vector<double> v_medians, p_medians;
  FlockState cpu_state = initial;
  for (std::uint32_t k = 0; k < options.lockstep_steps; ++k) {
    const std::vector<NeighbourhoodExpectation> expected = expected_neighbourhoods(scenario, cpu_state);
    gpu.upload(cpu_state);
    gpu.step();
    const FlockState gpu_after = gpu.download();
    merge(report.neighbours, check_neighbour_counts(expected, observed_counts(gpu.download_neighbour_counts())));
    CpuStepTrace trace;
    FlockState cpu_after = cpu_step(scenario, cpu_state, &trace, options.steered, options.births);
    cpu_after.sort_by_id();
    std::vector<float> cpu_energies;  // e' before any split, to place events in their band
    for (const BoidEvents& e : trace.events) cpu_energies.push_back(e.energy_after);
    merge(report.lockstep,
          compare_lockstep(scenario, cpu_state, expected, cpu_after, gpu_after, trace.births,
                           cpu_energies),
          v_medians, p_medians);
    cpu_state = std::move(cpu_after);
    if (options.steps_done) options.steps_done(k + 1);
  }
  report.lockstep.median_velocity_error = median_of(v_medians);
  report.lockstep.median_position_error = median_of(p_medians);

  // Free run: GPU and CPU each alone from the start, against the drift of perturbed CPU runs.
  if (options.free_steps > 0) {
    FreeRunCheck& free = report.free_run;
    free.ran = true;
    gpu.upload(initial);
    FlockState cpu = initial;
    std::vector<FlockState> perturbed;
    for (std::uint32_t v = 0; v < std::max(1u, options.envelope_runs); ++v) {
      perturbed.push_back(perturb_one_ulp(scenario, initial, static_cast<int>(v)));
    }
    free.envelope_runs = static_cast<std::uint32_t>(perturbed.size());
    const double ulp_floor = double(kFloatEpsilon) * world_scale(scenario);
    const std::uint32_t sample_every =
        std::max(1u, options.free_steps / std::max(1u, options.samples));
    FlockState gpu_state;
    for (std::uint32_t step = 1; step <= options.free_steps; ++step) {
      gpu.step();
      CpuStepTrace trace;
      FlockState cpu_next = cpu_step(scenario, cpu, &trace, options.steered, options.births);
      free.events_within_band += events_within_band(scenario, cpu, trace);
      cpu = std::move(cpu_next);
      cpu.sort_by_id();
      for (std::size_t v = 0; v < perturbed.size(); ++v) {
        FlockState& p = perturbed[v];
        p = cpu_step(scenario, p, nullptr, options.steered, options.births);
        p.sort_by_id();
        jitter_energies_within_band(scenario, p, static_cast<int>(v));
      }
      if (options.steps_done) options.steps_done(options.lockstep_steps + step);
      if (step % sample_every != 0 && step != options.free_steps) continue;
      gpu_state = gpu.download();
      DriftSample s;
      s.step = step;
      s.gpu_vs_cpu = rms_position_drift(scenario, gpu_state, cpu);
      for (const FlockState& p : perturbed) {
        s.envelope = std::max(s.envelope, rms_position_drift(scenario, p, cpu));
      }
      s.limit = kFreeRunDriftFactor * std::max(s.envelope, ulp_floor);
      free.samples.push_back(s);
    }
    const FlockStats gpu_stats = compute_stats(scenario, gpu_state);
    std::vector<double> polarization{compute_stats(scenario, cpu).polarization};
    std::vector<double> nearest{compute_stats(scenario, cpu).mean_nearest_neighbour};
    for (const FlockState& p : perturbed) {
      const FlockStats st = compute_stats(scenario, p);
      polarization.push_back(st.polarization);
      nearest.push_back(st.mean_nearest_neighbour);
    }
    free.stats.push_back(agreement("polarization", gpu_stats.polarization, polarization, 1.0));
    free.stats.push_back(agreement("mean NN distance", gpu_stats.mean_nearest_neighbour, nearest,
                                   std::max(nearest.front(), 1e-30)));
    // A population that changes (ages, the ecosystem's deaths and births, budding) is compared
    // species by species against the CPU ensemble.
    const bool population_changes =
        options.births.any() ||
        std::any_of(scenario.species.begin(), scenario.species.end(), [](const SpeciesParams& s) {
          return s.max_age > 0 || s.energy_max > 0 || !s.eats.empty();
        });
    if (population_changes) {
      const std::vector<std::uint32_t> gpu_population = population_by_species(scenario, gpu_state);
      std::vector<std::vector<std::uint32_t>> cpu_populations{population_by_species(scenario, cpu)};
      for (const FlockState& p : perturbed) cpu_populations.push_back(population_by_species(scenario, p));
      for (std::size_t s = 0; s < scenario.species.size(); ++s) {
        std::vector<double> runs;
        for (const auto& population : cpu_populations) runs.push_back(population[s]);
        StatAgreement population = agreement("population " + scenario.species[s].name,
                                             gpu_population[s], runs, std::max(runs.front(), 1.0));
        if (free.events_within_band > 0) {
          population.limit = std::max(population.limit,
                                      kStatSpreadFactor * population.spread + kFlippedEventBoids);
        }
        free.stats.push_back(population);
      }
    }
  }
  return report;
}

std::string CompareReport::table() const {
  std::string out;
  char line[768];
  auto verdict = [](bool ok) { return ok ? "PASS" : "FAIL"; };
  std::snprintf(line, sizeof line, "%-18s %-6s %s\n", "check", "result", "details");
  out += line;
  std::snprintf(line, sizeof line,
                "%-18s %-6s %u boid-steps, %u mismatched, %u ambiguous pairs (in %u boid-steps)\n",
                "neighbour sets", verdict(neighbours.passed()), neighbours.boids,
                neighbours.mismatched_boids, neighbours.ambiguous_pairs, neighbours.ambiguous_boids);
  out += line;
  for (const std::string& m : neighbours.first_mismatches) out += "    " + m + "\n";
  std::snprintf(line, sizeof line,
                "%-18s %-6s %u boid-steps (%u ambiguous skipped), %u over tolerance; deaths %u, "
                "births %u, events on one side only %u, ambiguous events %u; |dv| median %.3g "
                "max %.3g; |dp| median %.3g max %.3g; worst error/tolerance %.3g\n",
                "lockstep", verdict(lockstep.passed()), lockstep.boids, lockstep.skipped_ambiguous,
                lockstep.failed - lockstep.event_mismatches, lockstep.deaths, lockstep.births,
                lockstep.event_mismatches, lockstep.ambiguous_events,
                lockstep.median_velocity_error, lockstep.max_velocity_error,
                lockstep.median_position_error, lockstep.max_position_error,
                lockstep.worst_error_over_tolerance);
  out += line;
  for (const std::string& f : lockstep.first_failures) out += "    " + f + "\n";
  if (free_run.ran) {
    bool drift_ok = true;
    double worst = 0;
    for (const DriftSample& s : free_run.samples) {
      drift_ok = drift_ok && s.gpu_vs_cpu <= s.limit;
      worst = std::max(worst, s.gpu_vs_cpu / s.limit);
    }
    std::snprintf(line, sizeof line,
                  "%-18s %-6s %zu samples; worst drift/limit %.3g (limit = %.0f x CPU 1-ulp "
                  "envelope of %u run%s); CPU events within the rounding band %u\n",
                  "free-run drift", verdict(drift_ok), free_run.samples.size(), worst,
                  kFreeRunDriftFactor, free_run.envelope_runs,
                  free_run.envelope_runs == 1 ? "" : "s", free_run.events_within_band);
    out += line;
    for (const DriftSample& s : free_run.samples) {
      std::snprintf(line, sizeof line, "    step %5u: gpu-cpu %.3e  envelope %.3e  limit %.3e\n", s.step,
                    s.gpu_vs_cpu, s.envelope, s.limit);
      out += line;
    }
    for (const StatAgreement& s : free_run.stats) {
      std::snprintf(line, sizeof line, "%-18s %-6s gpu %.6g, cpu %.6g, cpu spread %.3g, limit %.3g\n",
                    s.name.c_str(), verdict(s.passed()), s.gpu, s.cpu, s.spread, s.limit);
      out += line;
    }
  }
  std::snprintf(line, sizeof line, "overall: %s\n", verdict(passed()));
  out += line;
  return out;
}

}  // namespace murmur
