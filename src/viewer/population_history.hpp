#pragma once
// The panel's population plot: the live boids of each species and the food total, one sample
// every few steps, the last `length` samples kept oldest first (contiguous, as ImGui's
// PlotLines wants them). Header-only, so tests/gpu/test_window_logic.cpp tests it without a
// window.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace murmur::viewer {

class PopulationHistory {
 public:
  static constexpr std::size_t kDefaultLength = 600;
  static constexpr std::uint64_t kDefaultStepsPerSample = 10;

  explicit PopulationHistory(std::size_t length = kDefaultLength,
                             std::uint64_t steps_per_sample = kDefaultStepsPerSample)
      : length_(std::max<std::size_t>(length, 1)),
        steps_per_sample_(std::max<std::uint64_t>(steps_per_sample, 1)) {}

  // Whether a sample of `step` would be kept: the first, or one at least steps_per_sample
  // after the last kept (a paused flock, or several frames of one step, add nothing).
  bool wants(std::uint64_t step) const {
    return !last_step_ || step >= *last_step_ + steps_per_sample_;
  }

  // The live boids of each species at `step`, and the food total (nullopt: no food field).
  // Ignored unless wants(step). A new species count starts the history afresh.
  void add(std::uint64_t step, const std::vector<std::uint32_t>& population,
           std::optional<double> food) {
    if (!wants(step)) return;
    if (population.size() != species_.size()) clear(population.size());
    for (std::size_t s = 0; s < population.size(); ++s)
      push(species_[s], static_cast<float>(population[s]));
    if (food) {
      push(food_, static_cast<float>(*food));
    } else {
      food_.clear();
    }
    last_step_ = step;
  }

  // Forgets every sample (a new flock); `species` series from now on.
  void clear(std::size_t species = 0) {
    species_.assign(species, {});
    food_.clear();
    last_step_.reset();
  }

  std::size_t species_count() const { return species_.size(); }
  // Oldest first, at most length() samples.
  const std::vector<float>& population(std::size_t species) const { return species_[species]; }
  const std::vector<float>& food() const { return food_; }  // empty without a food field
  // The step of the newest sample; nothing before the first.
  std::optional<std::uint64_t> last_step() const { return last_step_; }
  std::size_t length() const { return length_; }
  std::uint64_t steps_per_sample() const { return steps_per_sample_; }

 private:
  void push(std::vector<float>& series, float value) const {
    if (series.size() == length_) series.erase(series.begin());
    series.push_back(value);
  }

  std::size_t length_;
  std::uint64_t steps_per_sample_;
  std::vector<std::vector<float>> species_;
  std::vector<float> food_;
  std::optional<std::uint64_t> last_step_;
};

}  // namespace murmur::viewer
