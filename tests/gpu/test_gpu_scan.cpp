// GpuScan's count read from a buffer (docs/gpu.md, "The floor-plan generator": the plan scans
// its movers and its grid's cells over lengths only the GPU knows): the first `count` values
// scanned, the rest untouched, across block and level boundaries. The plain scan's own test is
// test_gpu_flock's.
#include <cstdint>
#include <random>
#include <vector>

#include "gpu_test_support.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/gpu_scan.hpp"

namespace murmur {
namespace {

// values scanned on the GPU over the count at word `word` of a small counts buffer.
std::vector<std::uint32_t> scanned_over_count(const std::vector<std::uint32_t>& values,
                                              std::uint32_t count, std::uint32_t word) {
  const auto n = static_cast<std::uint32_t>(values.size());
  gl::Buffer buffer("scan values", sizeof(std::uint32_t) * n, values.data());
  std::vector<std::uint32_t> words(word + 2, 0xdeadbeefu);
  words[word] = count;
  gl::Buffer counts("scan counts", sizeof(std::uint32_t) * words.size(), words.data());
  GpuScan scan(n);
  scan.run(buffer, n, counts, word * sizeof(std::uint32_t));
  std::vector<std::uint32_t> out(n);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  buffer.download(0, sizeof(std::uint32_t) * n, out.data());
  return out;
}

TEST_CASE("GPU scan over a count in a buffer: the first count values scanned, the rest kept") {
  test::gl_context();
  gl::DebugMessenger debug;
  std::mt19937 rng(5);
  struct Case {
    std::uint32_t n, count;
  };
  // Within one block, on block edges, and past one level of block totals (1024 x 1024).
  for (const Case c : {Case{5, 0}, Case{5, 3}, Case{5, 5}, Case{3000, 1024}, Case{3000, 1025},
                       Case{3000, 2048}, Case{1024u * 1024u + 7u, 1024u * 1024u + 1u},
                       Case{3u * 1024u * 1024u, 1024u * 1024u + 2049u}}) {
    std::vector<std::uint32_t> values(c.n);
    for (auto& v : values) v = rng() % 9;
    std::vector<std::uint32_t> expected = values;
    std::uint32_t running = 0;
    for (std::uint32_t i = 0; i < c.count; ++i) {
      expected[i] = running;
      running += values[i];
    }
    INFO("length " << c.n << ", count " << c.count);
    REQUIRE(scanned_over_count(values, c.count, 1) == expected);
  }
  // A count above the length scans the length.
  std::vector<std::uint32_t> ones(2000, 1);
  std::vector<std::uint32_t> indices(2000);
  for (std::uint32_t i = 0; i < indices.size(); ++i) indices[i] = i;
  CHECK(scanned_over_count(ones, 5000, 0) == indices);
  REQUIRE(debug.error_count() == 0);
}

}  // namespace
}  // namespace murmur
