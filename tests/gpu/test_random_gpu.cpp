// shaders/common/random.glsl against the CPU generator (include/murmur/base/random.hpp): a compute shader
// evaluates Philox4x32-10 and murmur's draws for thousands of (seed, id, step, draw) tuples,
// ids near 2^32 and steps past 2^32 among them, and every result must equal the CPU's bit for
// bit. The known answers of tests/core/test_random.cpp come first in the list.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_test_support.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/gl/shader_source.hpp"
#include "murmur/base/random.hpp"
#include "test_random.hpp"

using namespace murmur;

namespace {

constexpr unsigned kProbeGroupSize = 64;

// std430 mirrors of the probe shader's records below.
struct Probe {
  PhiloxCounter counter;  // raw Philox input ...
  PhiloxKey key;
  std::uint32_t seed[2];  // ... and one draw: (seed low, seed high), id, (step low, high), draw
  std::uint32_t step[2];
  std::uint32_t id;
  std::uint32_t draw;
  float low, high;  // the range of random_uniform
  std::uint32_t pad[2];
};
static_assert(sizeof(Probe) == 64);

struct ProbeResult {
  PhiloxCounter block;  // philox4x32_10(counter, key)
  std::uint32_t bits;   // random_bits
  float uniform01;
  float uniform;
  std::uint32_t pad;
};
static_assert(sizeof(ProbeResult) == 32);

constexpr std::string_view kProbeShader = R"(#version 450
#include "common/random.glsl"
layout(local_size_x = PROBE_GROUP_SIZE) in;
struct Probe {
  uvec4 counter;
  uvec2 key;
  uvec2 seed;
  uvec2 step;
  uint id;
  uint draw;
  float low, high;
  uint pad0, pad1;
};
struct ProbeResult {
  uvec4 block;
  uint bits;
  float uniform01;
  float uniform_value;
  uint pad;
};
layout(std430, binding = 0) readonly buffer Probes { Probe probes[]; };
layout(std430, binding = 1) writeonly buffer Results { ProbeResult results[]; };
uniform uint u_probe_count;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= u_probe_count) return;
  Probe p = probes[i];
  results[i].block = philox4x32_10(p.counter, p.key);
  results[i].bits = random_bits(p.seed, p.id, p.step, p.draw);
  results[i].uniform01 = random_uniform01(p.seed, p.id, p.step, p.draw);
  results[i].uniform_value = random_uniform(p.seed, p.id, p.step, p.draw, p.low, p.high);
}
)";

constexpr std::uint32_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kTwoTo32 = std::uint64_t{1} << 32;
constexpr std::uint32_t kLowWordMask = kMaxU32;

// The edges of each input's range, mixed with random values.
constexpr std::uint32_t kEdgeIds[] = {0, 1, 2, 0x7fffffff, 0x80000000, kMaxU32 - 1, kMaxU32};
constexpr std::uint64_t kEdgeSteps[] = {0, 1, kMaxU32, kTwoTo32, kTwoTo32 + 1, 0x123456789abcull,
                                        kMaxU64};
constexpr std::uint64_t kEdgeSeeds[] = {0, 42, kMaxU32, kTwoTo32, kMaxU64};
constexpr std::uint32_t kEdgeDraws[] = {0, 1, 2, 3, 4, 7, kMaxU32 - 3, kMaxU32};
constexpr std::uint32_t kRandomProbes = 4096;
constexpr float kRangeMagnitude = 1000.0f;

void set_draw(Probe& p, const RandomDraw& d) {
  p.seed[0] = static_cast<std::uint32_t>(d.seed & kLowWordMask);
  p.seed[1] = static_cast<std::uint32_t>(d.seed >> 32);
  p.step[0] = static_cast<std::uint32_t>(d.step & kLowWordMask);
  p.step[1] = static_cast<std::uint32_t>(d.step >> 32);
  p.id = d.id;
  p.draw = d.draw;
}

RandomDraw draw_of(const Probe& p) {
  return RandomDraw{p.seed[0] | std::uint64_t{p.seed[1]} << 32, p.id,
                    p.step[0] | std::uint64_t{p.step[1]} << 32, p.draw};
}

std::vector<Probe> make_probes() {
  std::vector<Probe> probes;
  test::SplitMix random(2024);
  auto word = [&] { return static_cast<std::uint32_t>(random.next()); };
  auto add = [&](PhiloxCounter counter, PhiloxKey key, const RandomDraw& d) {
    Probe p{};
    p.counter = counter;
    p.key = key;
    set_draw(p, d);
    p.low = random.in(-kRangeMagnitude, kRangeMagnitude);
    p.high = p.low + random.in(0.0f, kRangeMagnitude);
    probes.push_back(p);
  };
  // Random123's known answers (tests/core/test_random.cpp) as raw inputs.
  add({0, 0, 0, 0}, {0, 0}, {});
  add({kMaxU32, kMaxU32, kMaxU32, kMaxU32}, {kMaxU32, kMaxU32}, {});
  add({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}, {});
  // Every combination of edge values.
  for (const std::uint64_t seed : kEdgeSeeds) {
    for (const std::uint32_t id : kEdgeIds) {
      for (const std::uint64_t step : kEdgeSteps) {
        for (const std::uint32_t draw : kEdgeDraws) {
          add({id, word(), word(), draw}, {word(), word()}, {seed, id, step, draw});
        }
      }
    }
  }
  for (std::uint32_t k = 0; k < kRandomProbes; ++k) {
    add({word(), word(), word(), word()}, {word(), word()},
        {random.next(), word(), random.next(), word()});
  }
  return probes;
}

}  // namespace

TEST_CASE("the GPU's Philox draws equal the CPU's bit for bit", "[random][gpu]") {
  test::gl_context();
  gl::DebugMessenger messenger;
  std::map<std::string, std::string_view> files = gl::embedded_shader_files();
  files["random_probe.comp"] = kProbeShader;
  const gl::Program program = gl::Program::compute(
      "random_probe.comp", "#define PROBE_GROUP_SIZE " + std::to_string(kProbeGroupSize), files);

  const std::vector<Probe> probes = make_probes();
  const auto count = static_cast<std::uint32_t>(probes.size());
  gl::Buffer probe_buffer("random probes", sizeof(Probe) * probes.size(), probes.data());
  gl::Buffer result_buffer("random probe results", sizeof(ProbeResult) * probes.size());
  probe_buffer.bind_storage(0);
  result_buffer.bind_storage(1);
  program.use();
  glProgramUniform1ui(program.id(), program.uniform("u_probe_count"), count);
  glDispatchCompute((count + kProbeGroupSize - 1) / kProbeGroupSize, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<ProbeResult> results(probes.size());
  result_buffer.download(0, sizeof(ProbeResult) * results.size(), results.data());

  CHECK(results[0].block == PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(results[1].block == PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(results[2].block == PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
  std::uint32_t mismatches = 0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const Probe& p = probes[i];
    const RandomDraw d = draw_of(p);
    const ProbeResult& gpu = results[i];
    const bool same = gpu.block == philox4x32_10(p.counter, p.key) && gpu.bits == random_bits(d) &&
                      std::bit_cast<std::uint32_t>(gpu.uniform01) ==
                          std::bit_cast<std::uint32_t>(random_uniform01(d)) &&
                      std::bit_cast<std::uint32_t>(gpu.uniform) ==
                          std::bit_cast<std::uint32_t>(random_uniform(d, p.low, p.high));
    if (same) continue;
    ++mismatches;
    UNSCOPED_INFO("probe " << i << ": seed " << d.seed << ", id " << d.id << ", step " << d.step
                           << ", draw " << d.draw << ": gpu bits " << gpu.bits << ", cpu "
                           << random_bits(d) << "; range [" << p.low << ", " << p.high
                           << "): gpu " << gpu.uniform << ", cpu "
                           << random_uniform(d, p.low, p.high));
    if (mismatches == 5) break;
  }
  CHECK(mismatches == 0);
  CHECK(count > kRandomProbes);
  CHECK(messenger.error_count() == 0);
}
