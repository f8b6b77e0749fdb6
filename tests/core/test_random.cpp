// The counter-based generator: Philox4x32-10 against its published known answers, and
// murmur's mapping of (seed, id, step, draw) onto Philox's key and counter (docs/model.md,
// "Random numbers"). tests/gpu/test_random_gpu.cpp holds the GPU to these same bits.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <set>

#include "murmur/base/random.hpp"

using namespace murmur;

namespace {

struct KnownAnswer {
  PhiloxCounter counter;
  PhiloxKey key;
  PhiloxCounter expected;
};

// Random123 (D. E. Shaw Research), examples/kat_vectors, the "philox4x32 10" lines: counter,
// key, expected output. The first three are the suite's all-zero, all-one and pi-digit inputs;
// the rest (one bit set in one word, which catches a swapped or misrouted lane) are from the
// longer generated list in the same file name of github.com/girving/random123-manual.
constexpr KnownAnswer kPhiloxKnownAnswers[] = {
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000},
     {0x00000000, 0x00000000},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    {{0x00000001, 0x00000000, 0x00000000, 0x00000000},
     {0x00000001, 0x00000000},
     {0xac08141b, 0xdfc5ccbe, 0x79c07a47, 0xa7f66093}},
    {{0x00000000, 0x00000001, 0x00000000, 0x00000000},
     {0x00000001, 0x00000000},
     {0x833ff8dc, 0x225c963c, 0x232b88b3, 0x0b334b07}},
    {{0x00000000, 0x00000000, 0x00000001, 0x00000000},
     {0x00000001, 0x00000000},
     {0x07071c12, 0x428264b6, 0x3909104b, 0x6da2bda2}},
    {{0x00000000, 0x00000000, 0x00000000, 0x00000001},
     {0x00000001, 0x00000000},
     {0x127bee41, 0x1e047488, 0x48842b20, 0x0a393496}},
    {{0x00000000, 0x00000000, 0x00000000, 0x80000000},
     {0x00000000, 0x80000000},
     {0xf7a0b371, 0xe51dc93d, 0x56ce135d, 0x1d4b5580}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0x00000000, 0xffffffff},
     {0x08f7720c, 0x845ee9e0, 0x502ccd3d, 0xa9a00e27}},
};

// The pi-digit answer again, reached through murmur's mapping: key = (seed low, seed high),
// counter = (id, step low, step high, draw / 4), word draw % 4.
constexpr std::uint64_t kPiSeed = 0x299f31d0'a4093822ull;
constexpr std::uint32_t kPiId = 0x243f6a88u;
constexpr std::uint64_t kPiStep = 0x13198a2e'85a308d3ull;
constexpr std::uint32_t kPiBlock = 0x03707344u;
constexpr PhiloxCounter kPiOutput = {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};

constexpr std::uint32_t kWordsPerBlock = 4;
constexpr float kTwoToMinus24 = 0x1.0p-24f;

}  // namespace

TEST_CASE("Philox4x32-10 reproduces Random123's known-answer vectors", "[random]") {
  for (const KnownAnswer& kat : kPhiloxKnownAnswers) {
    INFO("counter " << std::hex << kat.counter[0] << ' ' << kat.counter[1] << ' '
                    << kat.counter[2] << ' ' << kat.counter[3] << ", key " << kat.key[0] << ' '
                    << kat.key[1]);
    CHECK(philox4x32_10(kat.counter, kat.key) == kat.expected);
  }
}

TEST_CASE("the seed is the key and (id, step, draw) the counter, four draws per block",
          "[random]") {
  CHECK(random_key(kPiSeed) == PhiloxKey{0xa4093822, 0x299f31d0});
  for (std::uint32_t word = 0; word < kWordsPerBlock; ++word) {
    const RandomDraw draw{kPiSeed, kPiId, kPiStep, kPiBlock * kWordsPerBlock + word};
    INFO("word " << word);
    CHECK(random_counter(draw) == PhiloxCounter{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344});
    CHECK(random_bits(draw) == kPiOutput[word]);
  }

  // Each input reaches the counter or key word it is documented to: every draw below lands on
  // a known answer above, of which it takes word draw % 4.
  constexpr std::uint64_t kMaxSeed = std::numeric_limits<std::uint64_t>::max();
  constexpr std::uint32_t kMaxId = std::numeric_limits<std::uint32_t>::max();
  constexpr std::uint64_t kMaxStep = std::numeric_limits<std::uint64_t>::max();
  struct MappedAnswer {
    RandomDraw draw;
    std::uint32_t expected;
  };
  const MappedAnswer answers[] = {
      {{0, 0, 0, 0}, 0x6627e8d5},                    // all zero
      {{1, 1, 0, 0}, 0xac08141b},                    // id: counter word 0
      {{1, 0, 1, 1}, 0x225c963c},                    // step's low word: counter word 1
      {{1, 0, std::uint64_t{1} << 32, 2}, 0x3909104b},  // step's high word: counter word 2
      {{1, 0, 0, kWordsPerBlock + 3}, 0x0a393496},   // draw / 4: counter word 3
      {{0xffffffff'00000000ull, kPiId, kPiStep, kPiBlock * kWordsPerBlock}, 0x08f7720c},
  };
  for (const MappedAnswer& a : answers) {
    INFO("seed " << a.draw.seed << ", id " << a.draw.id << ", step " << a.draw.step << ", draw "
                 << a.draw.draw);
    CHECK(random_bits(a.draw) == a.expected);
  }
  // The largest seed, id, step and draw fill their words; nothing overflows into another.
  const RandomDraw largest{kMaxSeed, kMaxId, kMaxStep, std::numeric_limits<std::uint32_t>::max()};
  CHECK(random_key(largest.seed) == PhiloxKey{0xffffffff, 0xffffffff});
  CHECK(random_counter(largest) == PhiloxCounter{0xffffffff, 0xffffffff, 0xffffffff, 0x3fffffff});
}

TEST_CASE("uniform floats are the top 24 bits times 2^-24, from 0 up to but not including 1",
          "[random]") {
  for (std::uint32_t word = 0; word < kWordsPerBlock; ++word) {
    const RandomDraw draw{kPiSeed, kPiId, kPiStep, kPiBlock * kWordsPerBlock + word};
    const float expected = static_cast<float>(kPiOutput[word] >> 8) * kTwoToMinus24;
    INFO("word " << word);
    CHECK(random_uniform01(draw) == expected);
    CHECK(random_uniform(draw, -1.0f, 3.0f) == -1.0f + 4.0f * expected);
  }
}

TEST_CASE("draws are spread evenly and differ between boids, steps and seeds", "[random]") {
  // 4096 uniforms from one boid-step's consecutive draws: the mean is within a few standard
  // errors (sigma = 1 / sqrt(12 * 4096) ~ 0.0045) of 1/2 and every value lies in [0, 1).
  constexpr std::uint32_t kDraws = 4096;
  constexpr double kMeanTolerance = 0.02;
  double sum = 0;
  std::set<std::uint32_t> words;
  for (std::uint32_t d = 0; d < kDraws; ++d) {
    const RandomDraw draw{42, 7, 1000, d};
    const float u = random_uniform01(draw);
    REQUIRE(u >= 0.0f);
    REQUIRE(u < 1.0f);
    sum += u;
    words.insert(random_bits(draw));
  }
  CHECK_THAT(sum / kDraws, Catch::Matchers::WithinAbs(0.5, kMeanTolerance));
  CHECK(words.size() == kDraws);  // 4096 distinct 32-bit words: collisions are ~0.2% likely

  const RandomDraw base{42, 7, 1000, 0};
  RandomDraw other_id = base, other_step = base, other_seed = base, other_draw = base;
  other_id.id = 8;
  other_step.step = 1001;
  other_seed.seed = 43;
  other_draw.draw = 1;
  for (const RandomDraw& changed : {other_id, other_step, other_seed, other_draw}) {
    CHECK(random_bits(changed) != random_bits(base));
  }
  CHECK(random_bits(base) == random_bits(RandomDraw{42, 7, 1000, 0}));
}
