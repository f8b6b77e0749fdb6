// Statistics, boid lookup and state reads of a GpuFlock through readback rings
// (include/murmur/flock/gpu/flock_readback.hpp).
//
// Sections: the records the passes leave, and their decoding; the rings and the passes; requests;
// the latest results; reads that wait.
#include "murmur/flock/gpu/flock_readback.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <deque>
#include <numeric>
#include <string>
#include <vector>

#include "murmur/gl/dispatch.hpp"
#include "common/interface.h"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/gl/readback_ring.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/flock/gpu/gpu_types.hpp"

namespace murmur {
namespace {

// --- the records the passes leave, and their decoding ------------------------------------------
using gl::dispatch_linear;
using gl::groups_for;

// The fixed part of shaders/flock/summary_totals.glsl (std430), followed by uint species_population[].
struct SummaryTotals {
  double heading_sum[2];
  double position_sum[2];
  double circle_sum[4];  // x cos, x sin, y cos, y sin
  double milling_sum;
  double beyond_compact;
};
static_assert(sizeof(SummaryTotals) == 80);
static_assert(offsetof(SummaryTotals, circle_sum) % (4 * sizeof(double)) == 0,
              "std430 aligns a dvec4 to 32 bytes");
constexpr std::size_t kTotalsBytes = sizeof(SummaryTotals) + sizeof(std::uint32_t) * kMaxSpecies;

// shaders/flock/find_boid.comp's FoundBoidBlock (std430): a Boid, then the match count.
struct FoundBoid {
  gpu::Boid boid;
  std::uint32_t matches;
};
static_assert(offsetof(FoundBoid, matches) == sizeof(gpu::Boid));
// The same compiled with MURMUR_3D: the volume's 48-byte Boid, then the match count.
struct FoundBoid3D {
  gpu::Boid3D boid;
  std::uint32_t matches;
};
static_assert(offsetof(FoundBoid3D, matches) == sizeof(gpu::Boid3D));
constexpr std::size_t kFoundBytes = std::max(sizeof(FoundBoid), sizeof(FoundBoid3D));

// shaders/flock/nearest_boid.comp's NearestBoidBlock (std430).
struct NearestResult {
  std::uint32_t distance_bits;
  std::uint32_t id;
};
// The cleared NearestResult: all ones, a NaN pattern no distance has.
constexpr std::uint32_t kNoDistance = 0xffffffffu;
constexpr std::uint32_t kDistancePass = 0;  // nearest_boid.comp's nearest_pass values
constexpr std::uint32_t kSmallestIdPass = 1;
static_assert(kMaxSpecies <= 32,
              "nearest_boid.comp and flock_summary.comp keep one bit per species in a uint");

// A whole state is large: two slots (one filling, one ready) are enough at two reads a second.
constexpr std::size_t kStateSlots = 2;
// The ecosystem's snapshot holds the food field: two slots, as for the state.
constexpr std::size_t kEcosystemSlots = 2;
constexpr std::size_t kTallyBytes = sizeof(gpu::SpeciesTally) * kMaxSpecies;

// Bit s set: species s of the scenario lives on a torus (the passes' uniform wrapping_species).
std::uint32_t wrapping_species(const Scenario& scenario) {
  std::uint32_t wrapping = 0;
  for (std::size_t s = 0; s < scenario.species.size(); ++s) {
    if (scenario.species[s].topology == Topology::Wrap) wrapping |= 1u << s;
  }
  return wrapping;
}

// What decoding a summary needs to know about the flock it came from.
struct SummaryRequest {
  std::size_t species_count = 0;
  std::uint32_t wrapping_species = 0;
};

// Milling as compute_stats defines it (docs/model.md, "Flock statistics"): where a species
// wraps, only about a centroid that exists (an axis' directions do not cancel) and of a flock
// with no boid beyond MURMUR_MILLING_COMPACT_SHARE of the side from it.
std::optional<double> decode_milling(const SummaryTotals& totals, const SummaryRequest& request,
                                     double n) {
  if (request.wrapping_species != 0) {
    const double* circle = totals.circle_sum;
    const bool no_centre =
        (circle[0] == 0.0 && circle[1] == 0.0) || (circle[2] == 0.0 && circle[3] == 0.0);
    if (no_centre || totals.beyond_compact > 0.0) return std::nullopt;
  }
  return std::abs(totals.milling_sum) / n;
}

FlockSummary decode_summary(const std::byte* bytes, const SummaryRequest& request) {
  SummaryTotals totals;
  std::memcpy(&totals, bytes, sizeof totals);
  FlockSummary summary;
  summary.population.resize(request.species_count);
  std::memcpy(summary.population.data(), bytes + sizeof totals,
              sizeof(std::uint32_t) * request.species_count);
  // The live count stays on the GPU; the boids per species add up to it.
  const double n = std::accumulate(summary.population.begin(), summary.population.end(), 0.0);
  if (n == 0) return summary;
  summary.polarization = std::hypot(totals.heading_sum[0], totals.heading_sum[1]) / n;
  summary.milling = decode_milling(totals, request, n);
  summary.state = collective_state(summary.polarization, summary.milling);
  return summary;
}

std::optional<std::uint32_t> decode_nearest(const std::byte* bytes) {
  NearestResult result;
  std::memcpy(&result, bytes, sizeof result);
  if (result.distance_bits == kNoDistance) return std::nullopt;
  return result.id;
}

// `Found` is FoundBoid (the plane) or FoundBoid3D (a volume).
template <class Found>
std::optional<Boid> decode_found(const std::byte* bytes) {
  Found found;
  std::memcpy(&found, bytes, sizeof found);
  if (found.matches == 0) return std::nullopt;
  return gpu::from_gpu(found.boid);
}

std::optional<Boid> decode_boid(const std::byte* bytes, bool volume) {
  return volume ? decode_found<FoundBoid3D>(bytes) : decode_found<FoundBoid>(bytes);
}

// The boid records of a state snapshot, of type gpu::Boid (the plane) or gpu::Boid3D.
template <class Record>
void decode_records(const std::vector<std::byte>& bytes, std::uint32_t live, FlockState& state) {
  const std::size_t stored = (bytes.size() - sizeof(gpu::Population)) / sizeof(Record);
  std::vector<Record> records(std::min<std::size_t>(live, stored));
  std::memcpy(records.data(), bytes.data() + sizeof(gpu::Population),
              records.size() * sizeof(Record));
  state.boids.reserve(records.size());
  for (const Record& record : records) state.boids.push_back(gpu::from_gpu(record));
}

// A state snapshot: the Population record, then capacity() boid records of which the first
// Population::live are the state.
FlockState decode_state(const std::vector<std::byte>& bytes, bool volume) {
  gpu::Population population;
  std::memcpy(&population, bytes.data(), sizeof population);
  FlockState state;
  if (volume) {
    decode_records<gpu::Boid3D>(bytes, population.live, state);
  } else {
    decode_records<gpu::Boid>(bytes, population.live, state);
  }
  state.sort_by_id();
  state.next_id = population.next_id;
  return state;
}

// The bytes of one boid record in the flock's buffer (docs/gpu.md, "Three dimensions").
std::size_t record_bytes(const Scenario& scenario) {
  return is_3d(scenario) ? sizeof(gpu::Boid3D) : sizeof(gpu::Boid);
}

// What decoding an ecosystem snapshot needs: [tallies of kMaxSpecies | food_cells floats].
struct EcosystemRequest {
  std::size_t species_count = 0;
  std::size_t food_cells = 0;
  bool has_food = false;
};

EcosystemCounts decode_ecosystem(const std::byte* bytes, const EcosystemRequest& request) {
  EcosystemCounts counts;
  for (std::size_t s = 0; s < request.species_count; ++s) {
    gpu::SpeciesTally tally;
    std::memcpy(&tally, bytes + s * sizeof tally, sizeof tally);
    counts.totals.push_back(gpu::from_gpu(tally));
  }
  if (request.has_food) {
    std::vector<float> food(request.food_cells);
    std::memcpy(food.data(), bytes + kTallyBytes, food.size() * sizeof(float));
    counts.food = std::accumulate(food.begin(), food.end(), 0.0);
  }
  return counts;
}

// The current state and its live count (Population) at the bindings the passes read; they
// cover capacity() slots and skip those past the live count, so no count is read back.
void bind_state(const GpuFlock& flock) {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_BOIDS, flock.boid_buffer());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_POPULATION, flock.population_buffer());
}

}  // namespace

// --- the rings and the passes ------------------------------------------------------------------
struct FlockReadback::Impl {
  gl::Program summary_pass = gl::Program::compute("flock/flock_summary.comp");
  gl::Program total_pass = gl::Program::compute("flock/flock_summary_total.comp");
  gl::Program find_pass = gl::Program::compute("flock/find_boid.comp");
  // The lookup over a volume's records, compiled at the first 3D request.
  struct VolumeFind {
    gl::Program pass = gl::Program::compute("flock/find_boid.comp", gl::kVolumeDefine);
    gl::Uniform wanted_id{pass, "wanted_id"};
  };
  std::unique_ptr<VolumeFind> volume_find;
  gl::Program nearest_pass = gl::Program::compute("flock/nearest_boid.comp");
  // Uniforms, looked up once at load (a misspelt name is an error there).
  gl::Uniform summary_pass_index{summary_pass, "summary_pass"};
  gl::Uniform summary_world_size{summary_pass, "world_size"};
  gl::Uniform summary_wrapping_species{summary_pass, "wrapping_species"};
  gl::Uniform total_pass_index{total_pass, "summary_pass"};
  gl::Uniform total_partial_count{total_pass, "partial_count"};
  gl::Uniform find_wanted_id{find_pass, "wanted_id"};
  gl::Uniform nearest_wrapping_species{nearest_pass, "wrapping_species"};
  gl::Uniform nearest_point{nearest_pass, "point"};
  gl::Uniform nearest_world_size{nearest_pass, "world_size"};
  gl::Uniform nearest_pass_index{nearest_pass, "nearest_pass"};
  gl::Buffer partials;  // grows with the flock
  gl::Buffer totals{"statistics totals", kTotalsBytes};
  gl::Buffer found{"found boid", kFoundBytes};
  gl::Buffer nearest{"nearest boid", sizeof(NearestResult)};
  gl::ReadbackRing summary_ring{"statistics readback", kTotalsBytes};
  gl::ReadbackRing boid_ring{"found boid readback", kFoundBytes};
  gl::ReadbackRing nearest_ring{"nearest boid readback", sizeof(NearestResult)};
  gl::ReadbackRing state_ring;  // sized for the flock at the first request
  gl::Buffer state_snapshot;    // Population, then the boids: what state_ring copies
  gl::ReadbackRing ecosystem_ring;  // sized for the flock's food field at the first request
  gl::Buffer ecosystem_snapshot;    // the tallies, then the food field: what ecosystem_ring copies
  std::deque<EcosystemRequest> ecosystem_requests;
  // What each request in flight needs for decoding, in request order (as the rings return).
  std::deque<SummaryRequest> summary_requests;
  struct BoidRequest {
    std::uint32_t id = 0;
    bool volume = false;
  };
  std::deque<BoidRequest> boid_requests;
  std::deque<bool> state_requests;  // true: a volume's records
  std::deque<glm::vec2> nearest_requests;

  // Queues the statistics passes; the totals land in `totals`.
  SummaryRequest run_summary(const GpuFlock& flock) {
    gl::DebugGroup group("statistics");
    const Scenario& scenario = flock.scenario();
    const SummaryRequest request{scenario.species.size(), wrapping_species(scenario)};
    const std::uint32_t groups = groups_for(flock.capacity(), MURMUR_STEP_GROUP_SIZE);
    const std::size_t partial_bytes = sizeof(float) * 4 * std::max(groups, 1u);
    if (partials.size() < partial_bytes)
      partials = gl::Buffer("statistics partial sums", partial_bytes);

    totals.clear_to_zero();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the clear lands before the atomics
    bind_state(flock);
    partials.bind_storage(MURMUR_BIND_SUMMARY_PARTIALS);
    totals.bind_storage(MURMUR_BIND_SUMMARY_TOTALS);
    total_partial_count.set(groups);
    summary_pass.use();
    summary_world_size.set(scenario.size());
    summary_wrapping_species.set(request.wrapping_species);
    const auto reduce = [&](std::uint32_t pass) {
      summary_pass.use();
      summary_pass_index.set(pass);
      dispatch_linear(groups);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // partials: flock_summary -> total
      total_pass.use();
      total_pass_index.set(pass);
      glDispatchCompute(1, 1, 1);
      // totals: the earlier passes' centroid -> the milling pass; any pass -> the readback copy
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    };
    reduce(MURMUR_SUMMARY_HEADING_PASS);
    if (request.wrapping_species != 0) reduce(MURMUR_SUMMARY_CIRCLE_PASS);
    reduce(MURMUR_SUMMARY_MILLING_PASS);
    return request;
  }

  // Copies the tallies and the food field into ecosystem_snapshot (grown to fit); nothing runs
  // on the GPU but the copies.
  EcosystemRequest snapshot_ecosystem(const GpuFlock& flock) {
    const Scenario& scenario = flock.scenario();
    EcosystemRequest request{std::min(scenario.species.size(), kMaxSpecies), 0, false};
    const std::optional<GridShape> food_grid = flock.food_grid();
    if (food_grid && flock.food_buffer() != 0) {
      request.has_food = true;
      request.food_cells = food_grid->cell_count();
    }
    const std::size_t bytes = kTallyBytes + request.food_cells * sizeof(float);
    if (ecosystem_snapshot.size() < bytes)
      ecosystem_snapshot = gl::Buffer("ecosystem snapshot", bytes);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the last step's writes -> the copies
    glCopyNamedBufferSubData(flock.tally_buffer(), ecosystem_snapshot.id(), 0, 0,
                             static_cast<GLsizeiptr>(sizeof(gpu::SpeciesTally) *
                                                     request.species_count));
    if (request.has_food) {
      glCopyNamedBufferSubData(flock.food_buffer(), ecosystem_snapshot.id(), 0, kTallyBytes,
                               static_cast<GLsizeiptr>(request.food_cells * sizeof(float)));
    }
    return request;
  }

  // Queues the lookup; the answer lands in `found`.
  void run_find(const GpuFlock& flock, std::uint32_t id) {
    gl::DebugGroup group("find boid");
    found.clear_to_zero();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the clear lands before the match's write
    bind_state(flock);
    found.bind_storage(MURMUR_BIND_FOUND_BOID);
    if (is_3d(flock.scenario())) {
      if (!volume_find) volume_find = std::make_unique<VolumeFind>();
      volume_find->pass.use();
      volume_find->wanted_id.set(id);
    } else {
      find_pass.use();
      find_wanted_id.set(id);
    }
    dispatch_linear(groups_for(flock.capacity(), MURMUR_STEP_GROUP_SIZE));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // found -> the readback copy
  }

  // Queues the search; the answer lands in `nearest`.
  void run_nearest(const GpuFlock& flock, glm::vec2 point) {
    gl::DebugGroup group("nearest boid");
    const std::uint32_t all_ones = kNoDistance;
    glClearNamedBufferData(nearest.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &all_ones);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the clear lands before the atomics
    const Scenario& scenario = flock.scenario();
    bind_state(flock);
    nearest.bind_storage(MURMUR_BIND_NEAREST_BOID);
    nearest_pass.use();
    nearest_wrapping_species.set(wrapping_species(scenario));
    nearest_point.set(point);
    const glm::vec2 world = scenario.size();
    nearest_world_size.set(world);
    const std::uint32_t groups = groups_for(flock.capacity(), MURMUR_STEP_GROUP_SIZE);
    for (const std::uint32_t pass : {kDistancePass, kSmallestIdPass}) {
      nearest_pass_index.set(pass);
      dispatch_linear(groups);
      // nearest: the smallest distance -> pass 1; the answer -> the readback copy
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
  }
};

namespace {
// The statistics and nearest-boid passes read the plane's vectors: a 3D flock's statistics come
// from its state (compute_stats), and its picks from the screen (nearest_on_screen).
void require_plane(const GpuFlock& flock, const char* what) {
  if (is_3d(flock.scenario())) {
    throw InputError(std::string("the GPU's ") + what + " is 2D only; a 3D flock's is computed "
                     "from its state (request_state)");
  }
}
}  // namespace

FlockReadback::FlockReadback() : impl_(std::make_unique<Impl>()) {}
FlockReadback::~FlockReadback() = default;

// --- requests ----------------------------------------------------------------------------------
bool FlockReadback::request_summary(const GpuFlock& flock) {
  require_plane(flock, "flock summary");
  Impl& m = *impl_;
  if (m.summary_ring.in_flight() == m.summary_ring.slot_count()) return false;
  const SummaryRequest request = m.run_summary(flock);
  m.summary_ring.request(m.totals.id(), 0, kTotalsBytes);
  m.summary_requests.push_back(request);
  return true;
}

bool FlockReadback::request_boid(const GpuFlock& flock, std::uint32_t id) {
  Impl& m = *impl_;
  if (m.boid_ring.in_flight() == m.boid_ring.slot_count()) return false;
  m.run_find(flock, id);
  m.boid_ring.request(m.found.id(), 0, kFoundBytes);
  m.boid_requests.push_back({id, is_3d(flock.scenario())});
  return true;
}

bool FlockReadback::request_state(const GpuFlock& flock) {
  Impl& m = *impl_;
  // The live count stays on the GPU: it travels with the boids, in one snapshot.
  const std::size_t boid_bytes = record_bytes(flock.scenario()) * flock.capacity();
  const std::size_t bytes = sizeof(gpu::Population) + boid_bytes;
  if (m.state_ring.slot_bytes() < bytes) {
    m.state_ring = gl::ReadbackRing("state readback", bytes, kStateSlots);
    m.state_snapshot = gl::Buffer("state snapshot", bytes);
    m.state_requests.clear();  // the old ring's requests went with it
  }
  if (m.state_ring.in_flight() == m.state_ring.slot_count()) return false;
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the last step's writes -> the copies
  glCopyNamedBufferSubData(flock.population_buffer(), m.state_snapshot.id(), 0, 0,
                           sizeof(gpu::Population));
  glCopyNamedBufferSubData(flock.boid_buffer(), m.state_snapshot.id(), 0,
                           sizeof(gpu::Population), static_cast<GLsizeiptr>(boid_bytes));
  if (!m.state_ring.request(m.state_snapshot.id(), 0, bytes)) return false;
  m.state_requests.push_back(is_3d(flock.scenario()));
  return true;
}

bool FlockReadback::request_ecosystem(const GpuFlock& flock) {
  require_plane(flock, "ecosystem count");
  Impl& m = *impl_;
  const std::optional<GridShape> food_grid = flock.food_grid();
  const std::size_t bytes =
      kTallyBytes + (food_grid ? food_grid->cell_count() * sizeof(float) : 0);
  if (m.ecosystem_ring.slot_bytes() < bytes) {
    m.ecosystem_ring = gl::ReadbackRing("ecosystem readback", bytes, kEcosystemSlots);
    m.ecosystem_requests.clear();  // the old ring's requests went with it
  }
  if (m.ecosystem_ring.in_flight() == m.ecosystem_ring.slot_count()) return false;
  const EcosystemRequest request = m.snapshot_ecosystem(flock);
  m.ecosystem_ring.request(m.ecosystem_snapshot.id(), 0, bytes);
  m.ecosystem_requests.push_back(request);
  return true;
}

bool FlockReadback::request_nearest(const GpuFlock& flock, glm::vec2 point) {
  require_plane(flock, "nearest boid");
  Impl& m = *impl_;
  if (m.nearest_ring.in_flight() == m.nearest_ring.slot_count()) return false;
  m.run_nearest(flock, point);
  m.nearest_ring.request(m.nearest.id(), 0, sizeof(NearestResult));
  m.nearest_requests.push_back(point);
  return true;
}

// --- the latest results ------------------------------------------------------------------------
std::optional<FlockSummary> FlockReadback::latest_summary() {
  Impl& m = *impl_;
  std::optional<FlockSummary> latest;
  while (auto bytes = m.summary_ring.poll()) {
    latest = decode_summary(bytes->data(), m.summary_requests.front());
    m.summary_requests.pop_front();
  }
  return latest;
}

std::optional<BoidLookup> FlockReadback::latest_boid() {
  Impl& m = *impl_;
  std::optional<BoidLookup> latest;
  while (auto bytes = m.boid_ring.poll()) {
    const Impl::BoidRequest& request = m.boid_requests.front();
    latest = BoidLookup{request.id, decode_boid(bytes->data(), request.volume)};
    m.boid_requests.pop_front();
  }
  return latest;
}

std::optional<NearestBoid> FlockReadback::latest_nearest() {
  Impl& m = *impl_;
  std::optional<NearestBoid> latest;
  while (auto bytes = m.nearest_ring.poll()) {
    latest = NearestBoid{m.nearest_requests.front(), decode_nearest(bytes->data())};
    m.nearest_requests.pop_front();
  }
  return latest;
}

std::optional<EcosystemCounts> FlockReadback::latest_ecosystem() {
  Impl& m = *impl_;
  std::optional<EcosystemCounts> latest;
  while (auto bytes = m.ecosystem_ring.poll()) {
    latest = decode_ecosystem(bytes->data(), m.ecosystem_requests.front());
    m.ecosystem_requests.pop_front();
  }
  return latest;
}

std::optional<FlockState> FlockReadback::latest_state() {
  Impl& m = *impl_;
  std::optional<std::vector<std::byte>> latest;
  bool volume = false;
  while (auto bytes = m.state_ring.poll()) {
    latest = std::move(bytes);
    volume = m.state_requests.front();
    m.state_requests.pop_front();
  }
  if (!latest) return std::nullopt;
  return decode_state(*latest, volume);
}

void FlockReadback::discard() {
  Impl& m = *impl_;
  m.summary_ring.discard();
  m.boid_ring.discard();
  m.state_ring.discard();
  m.nearest_ring.discard();
  m.ecosystem_ring.discard();
  m.ecosystem_requests.clear();
  m.summary_requests.clear();
  m.boid_requests.clear();
  m.nearest_requests.clear();
  m.state_requests.clear();
}

// --- reads that wait ---------------------------------------------------------------------------
FlockSummary FlockReadback::summary_now(const GpuFlock& flock) {
  require_plane(flock, "flock summary");
  Impl& m = *impl_;
  const SummaryRequest request = m.run_summary(flock);
  std::vector<std::byte> bytes(kTotalsBytes);  // run_summary's last barrier covers the download
  m.totals.download(0, bytes.size(), bytes.data());
  return decode_summary(bytes.data(), request);
}

std::optional<Boid> FlockReadback::find_now(const GpuFlock& flock, std::uint32_t id) {
  Impl& m = *impl_;
  m.run_find(flock, id);
  std::vector<std::byte> bytes(kFoundBytes);
  m.found.download(0, bytes.size(), bytes.data());
  return decode_boid(bytes.data(), is_3d(flock.scenario()));
}

EcosystemCounts FlockReadback::ecosystem_now(const GpuFlock& flock) {
  require_plane(flock, "ecosystem count");
  Impl& m = *impl_;
  const EcosystemRequest request = m.snapshot_ecosystem(flock);
  std::vector<std::byte> bytes(kTallyBytes + request.food_cells * sizeof(float));
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the copies -> the download
  m.ecosystem_snapshot.download(0, bytes.size(), bytes.data());
  return decode_ecosystem(bytes.data(), request);
}

std::optional<std::uint32_t> FlockReadback::nearest_now(const GpuFlock& flock, glm::vec2 point) {
  require_plane(flock, "nearest boid");
  Impl& m = *impl_;
  m.run_nearest(flock, point);
  std::vector<std::byte> bytes(sizeof(NearestResult));
  m.nearest.download(0, bytes.size(), bytes.data());
  return decode_nearest(bytes.data());
}

}  // namespace murmur
