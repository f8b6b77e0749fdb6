// Flock state: the seeded start is reproducible and well distributed; CSV round-trips every
// float32 bit for bit and rejects malformed files by file:line:column; .npy is well-formed;
// failed writes throw OutputError naming the path and leave nothing behind.
//
// Sections: helpers; the seeded start; CSV; .npy and writing; three dimensions; energies and the
// food field; start layouts ([[spawn]]).
//
// It is over 800 lines because every state format's cases, 2D and 3D, share the fixtures of the first
// section, and a reader looking for what a file format promises finds it in one place.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <numbers>
#include <set>
#include <sstream>
#include <string>

#include <glm/geometric.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/base/random.hpp"
#include "murmur/scenario/scenario.hpp"
#include "murmur/flock/state.hpp"
#include "sparse_ids.hpp"
#include "temp_dir.hpp"

using namespace murmur;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinAbs;

namespace fs = std::filesystem;
using murmur::test::TmpfsMount;
using murmur::test::disk_fault_mount_ready;
using murmur::test::file_names;

// --- helpers -----------------------------------------------------------------------------------
namespace {

constexpr float kFloatMax = std::numeric_limits<float>::max();

// A fresh, empty directory per test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "murmur-state-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(path);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path)) names.push_back(entry.path().filename().string());
    return names;
  }
};

Scenario two_species(float width, float height, std::uint32_t wrap_count, std::uint32_t bounded_count) {
  Scenario s;
  s.source = "test.toml";
  s.world = {.width = width, .height = height, .seed = 42};
  SpeciesParams wrap;
  wrap.name = "wrapper";
  wrap.count = wrap_count;
  wrap.topology = Topology::Wrap;
  wrap.perception_radius = 10.0f;
  wrap.separation_radius = 4.0f;
  wrap.max_force = 0.1f;
  wrap.min_speed = 1.0f;
  wrap.max_speed = 3.0f;
  SpeciesParams walled = wrap;
  walled.name = "walled";
  walled.count = bounded_count;
  walled.topology = Topology::Bounded;
  walled.min_speed = 0.5f;
  walled.max_speed = 0.75f;
  s.species = {wrap, walled};
  validate_scenario(s);
  return s;
}

bool same_bits(const Boid& a, const Boid& b) {
  return a.id == b.id && a.species == b.species && a.age == b.age &&
         std::bit_cast<std::uint32_t>(a.energy) == std::bit_cast<std::uint32_t>(b.energy) &&
         std::bit_cast<std::uint64_t>(a.pos) == std::bit_cast<std::uint64_t>(b.pos) &&
         std::bit_cast<std::uint64_t>(a.vel) == std::bit_cast<std::uint64_t>(b.vel) &&
         std::bit_cast<std::uint32_t>(a.z) == std::bit_cast<std::uint32_t>(b.z) &&
         std::bit_cast<std::uint32_t>(a.vz) == std::bit_cast<std::uint32_t>(b.vz);
}

bool same_bits(const FlockState& a, const FlockState& b) {
  if (a.boids.size() != b.boids.size()) return false;
  for (std::size_t i = 0; i < a.boids.size(); ++i) {
    if (!same_bits(a.boids[i], b.boids[i])) return false;
  }
  return true;
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

template <typename Error>
std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK(message.find('\n') == std::string::npos);
    return message;
  }
  FAIL("expected the error was not thrown");
  return {};
}

}  // namespace

// --- the seeded start --------------------------------------------------------------------------
TEST_CASE("seeded_start is reproducible bit for bit and depends on the seed", "[state]") {
  Scenario s = two_species(300.0f, 200.0f, 700, 300);
  const FlockState first = seeded_start(s);
  const FlockState second = seeded_start(s);
  CHECK(same_bits(first, second));

  s.world.seed = 43;
  const FlockState other = seeded_start(s);
  REQUIRE(other.boids.size() == first.boids.size());
  std::size_t moved = 0;
  for (std::size_t i = 0; i < first.boids.size(); ++i) moved += first.boids[i].pos != other.boids[i].pos;
  CHECK(moved == first.boids.size());
}

TEST_CASE("seeded_start's bits do not change between builds or machines", "[state]") {
  // Pinned values: the seeded start is a promise that a seed names one movie everywhere.
  // Changing the hash is a deliberate, documented break of that promise.
  const Scenario s = two_species(300.0f, 200.0f, 3, 1);
  const FlockState state = seeded_start(s);
  std::uint64_t fingerprint = 1469598103934665603ULL;  // FNV-1a over every record's bytes
  for (const Boid& boid : state.boids) {
    const std::uint32_t words[] = {boid.id, boid.species, std::bit_cast<std::uint32_t>(boid.pos.x),
                                   std::bit_cast<std::uint32_t>(boid.pos.y),
                                   std::bit_cast<std::uint32_t>(boid.vel.x),
                                   std::bit_cast<std::uint32_t>(boid.vel.y)};
    for (const std::uint32_t word : words) {
      for (int byte = 0; byte < 4; ++byte) {
        fingerprint = (fingerprint ^ ((word >> (8 * byte)) & 0xffu)) * 1099511628211ULL;
      }
    }
  }
  CHECK(fingerprint == 0xdbca01cd7ba56431ULL);
}

TEST_CASE("seeded_start staggers the ages of a mortal species below max_age, others start at 0",
          "[state]") {
  Scenario s = two_species(300.0f, 200.0f, 2000, 50);
  constexpr std::uint32_t kMaxAge = 40;
  s.species[0].max_age = kMaxAge;
  const FlockState state = seeded_start(s);
  std::vector<std::uint32_t> boids_of_age(kMaxAge, 0);
  for (const Boid& boid : state.boids) {
    if (boid.species == 0) {
      REQUIRE(boid.age < kMaxAge);
      ++boids_of_age[boid.age];
    } else {
      CHECK(boid.age == 0);
    }
  }
  // 50 boids per age on average: every age occurs, none holds a large share.
  for (const std::uint32_t count : boids_of_age) {
    CHECK(count > 0);
    CHECK(count < 150);
  }
  // The ages are part of the seeded state: same seed, same ages; positions unchanged.
  Scenario immortal = s;
  immortal.species[0].max_age = 0;
  const FlockState again = seeded_start(s), without_ages = seeded_start(immortal);
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    CHECK(again.boids[i].age == state.boids[i].age);
    CHECK(without_ages.boids[i].pos == state.boids[i].pos);
  }
}

TEST_CASE("seeded_start puts every boid in the world at an allowed speed, ids in species order", "[state]") {
  const Scenario s = two_species(300.0f, 200.0f, 7000, 3000);
  const FlockState state = seeded_start(s);
  REQUIRE(state.boids.size() == 10000);
  double sum_x = 0.0, sum_y = 0.0, sum_speed_wrap = 0.0;
  std::uint32_t quadrant[4] = {};
  for (std::uint32_t i = 0; i < state.boids.size(); ++i) {
    const Boid& b = state.boids[i];
    CHECK(b.id == i);
    CHECK(b.species == (i < 7000 ? 0u : 1u));
    CHECK(b.pos.x >= 0.0f);
    CHECK(b.pos.x < s.world.width);
    CHECK(b.pos.y >= 0.0f);
    CHECK(b.pos.y < s.world.height);
    // The speed is drawn in double and rounded per component, so allow a few float ulps.
    const SpeciesParams& p = s.species[b.species];
    const float speed = glm::length(b.vel);
    CHECK(speed >= p.min_speed * (1.0f - 1e-6f));
    CHECK(speed <= p.max_speed * (1.0f + 1e-6f));
    sum_x += b.pos.x;
    sum_y += b.pos.y;
    if (b.species == 0) sum_speed_wrap += speed;
    ++quadrant[(b.vel.x < 0.0f ? 1 : 0) + (b.vel.y < 0.0f ? 2 : 0)];
  }
  // Uniformity, loosely (standard errors are ~1% of these tolerances' scale).
  CHECK_THAT(sum_x / 10000.0, WithinAbs(150.0, 3.0));
  CHECK_THAT(sum_y / 10000.0, WithinAbs(100.0, 2.0));
  CHECK_THAT(sum_speed_wrap / 7000.0, WithinAbs(2.0, 0.03));
  for (const std::uint32_t n : quadrant) CHECK_THAT(n / 10000.0, WithinAbs(0.25, 0.02));
}

TEST_CASE("sort_by_id restores the canonical order", "[state]") {
  const Scenario s = two_species(300.0f, 200.0f, 50, 50);
  const FlockState canonical = seeded_start(s);
  FlockState shuffled = canonical;
  std::reverse(shuffled.boids.begin(), shuffled.boids.end());
  std::rotate(shuffled.boids.begin(), shuffled.boids.begin() + 37, shuffled.boids.end());
  REQUIRE_FALSE(same_bits(shuffled, canonical));
  shuffled.sort_by_id();
  CHECK(same_bits(shuffled, canonical));
}

// --- CSV ---------------------------------------------------------------------------------------
TEST_CASE("state CSV round-trips every float32 bit for bit", "[state]") {
  TempDir dir;
  const float big = 3.4e38f;
  Scenario s = two_species(kFloatMax, kFloatMax, 6, 3);
  const float awkward[] = {0.0f, -0.0f, 1e-38f, std::numeric_limits<float>::denorm_min(),
                           std::numeric_limits<float>::min(), 0.1f, 1.0f / 3.0f, 16777217.0f,
                           big, std::nextafter(kFloatMax, 0.0f), kFloatMax, -kFloatMax,
                           -1e-45f, std::nextafter(1.0f, 2.0f)};
  FlockState state;
  std::uint32_t id = 0;
  auto add = [&](std::uint32_t species, glm::vec2 pos, glm::vec2 vel) {
    state.boids.push_back(Boid{pos, vel, id++, species});
  };
  // Positions must lie in the world; velocities take anything finite, including -0 and denormals.
  add(0, {0.0f, -0.0f}, {awkward[0], awkward[1]});
  add(0, {1e-38f, std::numeric_limits<float>::denorm_min()}, {awkward[2], awkward[3]});
  add(0, {0.1f, 1.0f / 3.0f}, {awkward[4], awkward[5]});
  add(0, {16777217.0f, big}, {awkward[6], awkward[7]});
  add(0, {std::nextafter(kFloatMax, 0.0f), 1.0f}, {awkward[8], awkward[9]});
  add(0, {2.0f, 3.0f}, {awkward[10], awkward[11]});
  add(1, {kFloatMax, kFloatMax}, {awkward[12], awkward[13]});  // on the far walls: bounded only
  add(1, {0.0f, 0.0f}, {-0.0f, -0.0f});
  add(1, {5.0f, 5.0f}, {1e-40f, -1e-40f});
  state.boids[3].age = 4294967295u;  // ages too: the largest one, and an ordinary one
  state.boids[8].age = 17;
  s.species[1].energy_max = kFloatMax;  // and energies, up to the largest float
  state.boids[6].energy = kFloatMax;
  state.boids[8].energy = 0.1f;
  std::reverse(state.boids.begin(), state.boids.end());  // files keep the state's order

  const fs::path path = dir.path / "state.csv";
  write_state_csv(path, state, s);
  CHECK_THAT(read_bytes(path), StartsWith("id,species,x,y,vx,vy,age,energy\n8,1,5,5,"));
  CHECK_THAT(read_bytes(path), Contains(",17,0.100000001\n7,1,0,0,"));
  const FlockState back = read_state_csv(path, s);
  CHECK(same_bits(back, state));
  CHECK(dir.entries() == std::vector<std::string>{"state.csv"});  // no temporary left over

  // And the seeded start of a real scenario.
  const Scenario plain = two_species(300.0f, 200.0f, 500, 200);
  const FlockState seeded = seeded_start(plain);
  write_state(dir.path / "seeded.csv", seeded, plain);
  CHECK(same_bits(read_state_csv(dir.path / "seeded.csv", plain), seeded));
}

TEST_CASE("malformed or mismatched state CSV is rejected naming file, line and column", "[state]") {
  TempDir dir;
  // World 100 x 50; species 0 (wrapper, wrap) has 2 boids, species 1 (walled, bounded) has 1.
  const Scenario s = two_species(100.0f, 50.0f, 2, 1);
  const std::string header = "id,species,x,y,vx,vy\n";
  const std::string good_rows = "0,0,1,2,0.5,0.5\n1,0,3,4,0.5,0.5\n2,1,5,6,0.5,0.5\n";
  const fs::path path = dir.path / "in.csv";
  const std::string name = path.string();
  auto rejection = [&](const std::string& text) {
    write_text(path, text);
    return error_of<InputError>([&] { read_state_csv(path, s); });
  };

  write_text(path, header + good_rows);
  REQUIRE(read_state_csv(path, s).boids.size() == 3);
  write_text(path, "id,species,x,y,vx,vy\r\n0,0,1,2,0.5,0.5\r\n1,0,3,4,0.5,0.5\r\n2,1,100,50,0,0");
  CHECK(read_state_csv(path, s).boids.size() == 3);  // CRLF, no final newline, walled boid on the far corner
  // With ages; a living population's species counts need not be the scenario's.
  write_text(path, "id,species,x,y,vx,vy,age\n0,1,1,2,0.5,0.5,9\n5,1,3,4,0.5,0.5,0\n");
  const FlockState aged = read_state_csv(path, s);
  REQUIRE(aged.boids.size() == 2);
  CHECK(aged.boids[0].age == 9);
  CHECK(aged.boids[1].species == 1);

  struct Case {
    std::string text;
    std::string expected;  // after "<path>:"
  };
  const Case cases[] = {
      {"", "1:1: empty file"},
      {"id,species,x,y,vx\n" + good_rows,
       "1:1: header must be \"id,species,x,y,vx,vy,age,energy\" (or, without energies, "
       "\"id,species,x,y,vx,vy,age\", or without ages, \"id,species,x,y,vx,vy\")"},
      {"id,species,x,y,vx,vy,age\n0,0,1,2,0.5,0.5\n", "2:1: 6 columns, expected 7"},
      {"id,species,x,y,vx,vy,age\n0,0,1,2,0.5,0.5,-3\n",
       "2:17: age = \"-3\": must be an unsigned 32-bit integer"},
      {header + "0,0,1,2,0.5\n", "2:1: 5 columns, expected 6"},
      {header + "0,0,1,2,0.5,0.5,7\n", "2:1: 7 columns, expected 6"},
      {header + "0,0,1,2,0.5,0.5\n\n", "3:1: 1 columns, expected 6"},
      {header + "0,0,abc,2,0.5,0.5\n", "2:5: x = \"abc\": must be a finite float32 number"},
      {header + "0,0,1,2.5.1,0.5,0.5\n", "2:7: y = \"2.5.1\": must be a finite float32 number"},
      {header + "0,0,1,2,,0.5\n", "2:9: vx = \"\": must be a finite float32 number"},
      {header + "0,0,1,2,0.5,nan\n", "2:13: vy = \"nan\": must be a finite float32 number"},
      {header + "0,0,1,2,inf,0.5\n", "2:9: vx = \"inf\": must be a finite float32 number"},
      {header + "0,0,1,2,1e39,0.5\n", "2:9: vx = \"1e39\": must be a finite float32 number"},
      {header + "0,0, 1,2,0.5,0.5\n", "2:5: x = \" 1\": must be a finite float32 number"},
      {header + "-1,0,1,2,0.5,0.5\n", "2:1: id = \"-1\": must be an unsigned 32-bit integer"},
      {header + "0,x,1,2,0.5,0.5\n", "2:3: species = \"x\": must be an unsigned 32-bit integer"},
      {header + "0,2,1,2,0.5,0.5\n", "2:3: species = 2: must be < 2 (the scenario's species count)"},
      {header + "4294967295,0,1,2,0.5,0.5\n7,0,3,4,0.5,0.5\n4294967295,1,5,6,0.5,0.5\n",
       "4:1: id = 4294967295: duplicate, first seen on line 2"},
      {header + "4294967296,0,1,2,0.5,0.5\n", "2:1: id = \"4294967296\": must be an unsigned 32-bit integer"},
      {header + "1,0,1,2,0.5,0.5\n1,0,3,4,0.5,0.5\n", "3:1: id = 1: duplicate, first seen on line 2"},
      {header + "0,0,100,2,0.5,0.5\n", "2:5: x = 100: outside the world: must be >= 0 and < 100 (species wrapper is wrap)"},
      {header + "0,0,1,-0.5,0.5,0.5\n", "2:7: y = -0.5: outside the world: must be >= 0 and < 50"},
      {header + "0,1,1,50.001,0.5,0.5\n", "2:7: y = 50.001: outside the world: must be >= 0 and <= 50 (species walled is bounded)"},
      {header + good_rows + "3,1,7,8,0.5,0.5\n",
       " 4 boids, but the scenario test.toml holds at most 3 (world.capacity, or the species' total count)"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK_THAT(rejection(c.text), StartsWith(name + ":" + c.expected));
  }

  const fs::path missing = dir.path / "missing.csv";
  CHECK(error_of<InputError>([&] { read_state_csv(missing, s); }) ==
        missing.string() + ": cannot read state file (No such file or directory)");
  CHECK(error_of<InputError>([&] { read_state_csv(dir.path, s); }) ==
        dir.path.string() + ": is a directory, not a state file");
}

TEST_CASE("ids are any distinct uint32 values: sparse ids read and round-trip", "[state][ids]") {
  TempDir dir;
  const Scenario s = two_species(300.0f, 200.0f, 40, 9);
  const FlockState dense = seeded_start(s);
  const std::vector<std::uint32_t> ids = test::scattered_ids(dense.boids.size(), 5);
  REQUIRE(ids.front() == 0u);
  REQUIRE(ids.back() == std::numeric_limits<std::uint32_t>::max());
  FlockState sparse = test::renamed(dense, ids);
  std::reverse(sparse.boids.begin(), sparse.boids.end());  // any order is accepted

  const fs::path csv = dir.path / "sparse.csv";
  write_state(csv, sparse, s);
  CHECK_THAT(read_bytes(csv), StartsWith("id,species,x,y,vx,vy,age,energy\n4294967295,1,"));
  CHECK(same_bits(read_state_csv(csv, s), sparse));

  // .npy carries the ids as they are (no renumbering), record by record in the state's order.
  const fs::path npy = dir.path / "sparse.npy";
  write_state(npy, sparse, s);
  const std::string bytes = read_bytes(npy);
  constexpr std::size_t kRecordSize = 32;
  REQUIRE(bytes.size() >= sparse.boids.size() * kRecordSize);
  const std::size_t data_start = bytes.size() - sparse.boids.size() * kRecordSize;
  for (std::size_t k = 0; k < sparse.boids.size(); ++k) {
    std::uint32_t id = 0;
    for (int byte = 3; byte >= 0; --byte) {
      id = id << 8 | static_cast<unsigned char>(bytes[data_start + k * kRecordSize + byte]);
    }
    INFO("record " << k);
    CHECK(id == sparse.boids[k].id);
  }
}

// --- .npy and writing --------------------------------------------------------------------------
TEST_CASE(".npy files have a well-formed header and little-endian records", "[state]") {
  TempDir dir;
  const Scenario s = two_species(300.0f, 200.0f, 40, 9);
  FlockState state = seeded_start(s);
  for (Boid& b : state.boids) {
    b.age = 1000u + 7u * b.id;  // distinct, so a misplaced field shows
    b.energy = 0.5f + static_cast<float>(b.id);
  }
  const fs::path path = dir.path / "state.npy";
  write_state(path, state, s);
  const std::string bytes = read_bytes(path);

  REQUIRE(bytes.size() > 10);
  CHECK(bytes.substr(0, 6) == "\x93NUMPY");
  CHECK(bytes[6] == 1);  // version 1.0
  CHECK(bytes[7] == 0);
  const std::size_t header_size =
      static_cast<unsigned char>(bytes[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
  const std::size_t data_offset = 10 + header_size;
  CHECK(data_offset % 64 == 0);
  REQUIRE(bytes.size() == data_offset + 32 * state.boids.size());

  // The header is a Python dict literal; check its three entries and the padding.
  const std::string header = bytes.substr(10, header_size);
  CHECK(header.back() == '\n');
  CHECK(header.find_first_not_of(' ', header.rfind('}') + 1) == header.size() - 1);
  CHECK_THAT(header, StartsWith("{"));
  CHECK_THAT(header, Contains("'descr': [('id', '<u4'), ('species', '<u4'), ('x', '<f4'), ('y', '<f4'), "
                              "('vx', '<f4'), ('vy', '<f4'), ('age', '<u4'), ('energy', '<f4')]"));
  CHECK_THAT(header, Contains("'fortran_order': False"));
  CHECK_THAT(header, Contains("'shape': (49,)"));

  auto u32_at = [&](std::size_t offset) {
    std::uint32_t value = 0;
    for (int byte = 3; byte >= 0; --byte) {
      value = (value << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(byte)]);
    }
    return value;
  };
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    const Boid& b = state.boids[i];
    const std::size_t record = data_offset + 32 * i;
    CHECK(u32_at(record) == b.id);
    CHECK(u32_at(record + 4) == b.species);
    CHECK(u32_at(record + 8) == std::bit_cast<std::uint32_t>(b.pos.x));
    CHECK(u32_at(record + 12) == std::bit_cast<std::uint32_t>(b.pos.y));
    CHECK(u32_at(record + 16) == std::bit_cast<std::uint32_t>(b.vel.x));
    CHECK(u32_at(record + 20) == std::bit_cast<std::uint32_t>(b.vel.y));
    CHECK(u32_at(record + 24) == b.age);
    CHECK(u32_at(record + 28) == std::bit_cast<std::uint32_t>(b.energy));
  }

  // An empty state is still a valid array of shape (0,).
  write_state_npy(dir.path / "empty.npy", FlockState{}, s);
  const std::string empty = read_bytes(dir.path / "empty.npy");
  CHECK(empty.size() % 64 == 0);
  CHECK_THAT(empty, Contains("'shape': (0,)"));
}

TEST_CASE("write_state chooses the format by extension", "[state]") {
  TempDir dir;
  const Scenario s = two_species(300.0f, 200.0f, 2, 1);
  const FlockState state = seeded_start(s);
  write_state(dir.path / "upper.NPY", state, s);
  CHECK_THAT(read_bytes(dir.path / "upper.NPY"), StartsWith("\x93NUMPY"));
  write_state(dir.path / "upper.CSV", state, s);
  CHECK_THAT(read_bytes(dir.path / "upper.CSV"), StartsWith("id,species,"));
  const fs::path text = dir.path / "state.txt";
  CHECK(error_of<InputError>([&] { write_state(text, state, s); }) ==
        text.string() + ": unknown state file extension \".txt\" (accepted: .csv, .npy)");
  CHECK_FALSE(fs::exists(text));
}

TEST_CASE("a failed write throws OutputError naming the path and leaves no file", "[state]") {
  TempDir dir;
  const Scenario s = two_species(300.0f, 200.0f, 2000, 0);
  const FlockState state = seeded_start(s);

  SECTION("the directory does not exist") {
    const fs::path path = dir.path / "no-such-dir" / "out.csv";
    CHECK_THAT(error_of<OutputError>([&] { write_state_csv(path, state, s); }),
               StartsWith(path.string() + ": cannot create output file (No such file or directory)"));
    CHECK(dir.entries().empty());
  }

  SECTION("the disk fills up part way: the old file survives and the temporary is removed") {
    // RLIMIT_FSIZE makes writes past the limit fail with EFBIG, like a full disk would.
    const fs::path path = dir.path / "out.csv";
    write_text(path, "old contents");
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
    constexpr rlim_t kTinyFileLimit = 1000;  // the 2000-boid CSV is ~100 kB
    rlimit tiny = saved;
    tiny.rlim_cur = kTinyFileLimit;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &tiny) == 0);
    std::string csv_error, npy_error;
    try {
      write_state_csv(path, state, s);
    } catch (const OutputError& error) {
      csv_error = error.what();
    }
    try {
      write_state_npy(dir.path / "out.npy", state, s);
    } catch (const OutputError& error) {
      npy_error = error.what();
    }
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &saved) == 0);
    std::signal(SIGXFSZ, SIG_DFL);
    CHECK_THAT(csv_error, StartsWith(path.string() + ": write failed (File too large)"));
    CHECK_THAT(npy_error, StartsWith((dir.path / "out.npy").string() + ": write failed (File too large)"));
    CHECK(read_bytes(path) == "old contents");
    CHECK(dir.entries() == std::vector<std::string>{"out.csv"});
  }
}

TEST_CASE("a read-only directory: OutputError naming the path, and no file", "[state]") {
  TempDir dir;
  const Scenario s = two_species(300.0f, 200.0f, 20, 0);
  const FlockState state = seeded_start(s);
  const fs::path locked = dir.path / "locked";
  // Root ignores permission bits (and CI runs as root), so as root the directory is a
  // read-only tmpfs instead; where it cannot be mounted the test fails or, asked to, skips.
  std::unique_ptr<TmpfsMount> read_only;
  std::string reason = "Permission denied";
  if (::geteuid() == 0) {
    read_only = std::make_unique<TmpfsMount>(locked, "size=64k", MS_RDONLY);
    if (!disk_fault_mount_ready(*read_only, "read-only state directory")) return;
    reason = "Read-only file system";
  } else {
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  }
  const fs::path csv = locked / "out.csv";
  const fs::path npy = locked / "out.npy";
  CHECK(error_of<OutputError>([&] { write_state_csv(csv, state, s); }) ==
        csv.string() + ": cannot create output file (" + reason + ")");
  CHECK(error_of<OutputError>([&] { write_state_npy(npy, state, s); }) ==
        npy.string() + ": cannot create output file (" + reason + ")");
  CHECK(file_names(locked).empty());
  if (!read_only) fs::permissions(locked, fs::perms::owner_all);
}

// --- three dimensions --------------------------------------------------------------------------
namespace {

constexpr std::uint32_t kVolumeDimensions = 3;

// two_species in a volume of the given depth.
Scenario two_species_3d(float width, float height, float depth, std::uint32_t wrap_count,
                        std::uint32_t bounded_count) {
  Scenario s = two_species(width, height, wrap_count, bounded_count);
  s.world.dimensions = kVolumeDimensions;
  s.world.depth = depth;
  validate_scenario(s);
  return s;
}

// The records of a .npy file of 4-byte fields, read by the names its header's descr gives them:
// a reader that takes nothing from the writer but the file.
struct NpyRecords {
  std::vector<std::string> names;
  std::vector<std::vector<std::uint32_t>> records;
  std::size_t data_offset = 0;  // where the first record starts
  std::uint32_t field(std::size_t record, const std::string& name) const {
    const auto at = std::find(names.begin(), names.end(), name);
    REQUIRE(at != names.end());
    return records[record][static_cast<std::size_t>(at - names.begin())];
  }
};

NpyRecords read_npy_records(const std::string& bytes) {
  constexpr std::size_t kPreamble = 10;  // magic (6), version (2), header length (2)
  constexpr std::size_t kFieldBytes = 4;
  REQUIRE(bytes.size() >= kPreamble);
  const auto byte_at = [&](std::size_t offset) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[offset]));
  };
  const std::size_t header_size = byte_at(8) | byte_at(9) << 8;  // little-endian u2
  const std::string header = bytes.substr(kPreamble, header_size);
  NpyRecords out;
  const std::size_t descr_end = header.find("]");
  for (std::size_t at = header.find("('"); at < descr_end; at = header.find("('", at + 1)) {
    const std::size_t name_start = header.find('\'', at) + 1;
    out.names.push_back(header.substr(name_start, header.find('\'', name_start) - name_start));
  }
  const std::size_t record_size = kFieldBytes * out.names.size();
  out.data_offset = kPreamble + header_size;
  REQUIRE((bytes.size() - out.data_offset) % record_size == 0);
  for (std::size_t offset = out.data_offset; offset < bytes.size(); offset += record_size) {
    std::vector<std::uint32_t> record;
    for (std::size_t f = 0; f < out.names.size(); ++f) {
      std::uint32_t value = 0;
      for (std::size_t byte = kFieldBytes; byte-- > 0;) {
        value = value << 8 | byte_at(offset + kFieldBytes * f + byte);
      }
      record.push_back(value);
    }
    out.records.push_back(std::move(record));
  }
  return out;
}

}  // namespace

TEST_CASE("a 2D state file keeps its bytes: no z or vz columns", "[state][3d]") {
  TempDir dir;
  const Scenario s = two_species(100.0f, 50.0f, 1, 1);
  FlockState state;
  state.boids.push_back(Boid{{12.5f, 0.1f}, {-1.0f, 2.75f}, 3, 0, 9, 0.0f});
  state.boids.push_back(Boid{{100.0f, 1.0f / 3.0f}, {0.0f, -0.0f}, 7, 1, 0, 0.0f});
  // %.9g by hand: 0.1f is 0.100000001490116..., 1/3 as a float 0.333333343267...
  const std::string expected =
      "id,species,x,y,vx,vy,age,energy\n"
      "3,0,12.5,0.100000001,-1,2.75,9,0\n"
      "7,1,100,0.333333343,0,-0,0,0\n";
  write_state_csv(dir.path / "plane.csv", state, s);
  CHECK(read_bytes(dir.path / "plane.csv") == expected);

  // .npy: 8 fields of 4 bytes, no z or vz.
  write_state_npy(dir.path / "plane.npy", state, s);
  const NpyRecords npy = read_npy_records(read_bytes(dir.path / "plane.npy"));
  CHECK(npy.names ==
        std::vector<std::string>{"id", "species", "x", "y", "vx", "vy", "age", "energy"});
  REQUIRE(npy.records.size() == 2);
  CHECK(npy.field(1, "x") == std::bit_cast<std::uint32_t>(100.0f));
  CHECK(npy.field(1, "vy") == std::bit_cast<std::uint32_t>(-0.0f));
}

TEST_CASE("a 3D state round-trips z and vz bit for bit through CSV and .npy", "[state][3d]") {
  TempDir dir;
  Scenario s = two_species_3d(kFloatMax, kFloatMax, kFloatMax, 4, 3);
  s.species[1].energy_max = 10.0f;
  FlockState state;
  const auto add = [&](std::uint32_t species, glm::vec3 position, glm::vec3 velocity) {
    Boid boid;
    boid.id = static_cast<std::uint32_t>(state.boids.size()) * 3u + 1u;  // not their index
    boid.species = species;
    set_motion(boid, position, velocity);
    state.boids.push_back(boid);
  };
  // Each z and vz differs from its boid's other floats, so a column written in another's
  // place shows; awkward floats among them.
  add(0, {1.0f, 2.0f, 0.0f}, {0.5f, 0.25f, -0.0f});
  add(0, {3.0f, 4.0f, std::numeric_limits<float>::denorm_min()}, {-1.0f, 2.0f, 1e-40f});
  add(0, {5.0f, 6.0f, 0.1f}, {7.0f, 8.0f, 1.0f / 3.0f});
  add(0, {9.0f, 10.0f, std::nextafter(kFloatMax, 0.0f)}, {11.0f, 12.0f, -kFloatMax});
  add(1, {13.0f, 14.0f, kFloatMax}, {15.0f, 16.0f, 16777217.0f});  // on the far wall: bounded only
  state.boids[4].age = 4294967295u;
  state.boids[4].energy = 0.1f;

  const fs::path csv = dir.path / "volume.csv";
  write_state_csv(csv, state, s);
  const std::string text = read_bytes(csv);
  CHECK_THAT(text, StartsWith("id,species,x,y,z,vx,vy,vz,age,energy\n"));
  // Boid 2 written out by hand: 0.1f is 0.100000001490116..., 1/3 as a float 0.333333343...
  CHECK_THAT(text, Contains("\n7,0,5,6,0.100000001,7,8,0.333333343,0,0\n"));
  const FlockState back = read_state_csv(csv, s);
  REQUIRE(back.boids.size() == state.boids.size());
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    INFO("boid " << i);
    CHECK(same_bits(back.boids[i], state.boids[i]));
  }

  // A 3D file may leave out energy, or age and energy, as a 2D one may.
  write_text(csv, "id,species,x,y,z,vx,vy,vz,age\n5,0,1,2,3,4,5,6,7\n");
  const FlockState aged = read_state_csv(csv, s);
  REQUIRE(aged.boids.size() == 1);
  CHECK(aged.boids[0].z == 3.0f);
  CHECK(aged.boids[0].vz == 6.0f);
  CHECK(aged.boids[0].age == 7u);
  write_text(csv, "id,species,x,y,z,vx,vy,vz\n5,0,1,2,3,4,5,6\n");
  CHECK(read_state_csv(csv, s).boids[0].vz == 6.0f);

  const fs::path npy = dir.path / "volume.npy";
  write_state_npy(npy, state, s);
  const std::string bytes = read_bytes(npy);
  CHECK_THAT(bytes, Contains("'descr': [('id', '<u4'), ('species', '<u4'), ('x', '<f4'), "
                             "('y', '<f4'), ('z', '<f4'), ('vx', '<f4'), ('vy', '<f4'), "
                             "('vz', '<f4'), ('age', '<u4'), ('energy', '<f4')]"));
  const NpyRecords records = read_npy_records(bytes);
  REQUIRE(records.records.size() == state.boids.size());
  constexpr std::size_t kVolumeRecordBytes = 40;  // ten 4-byte fields
  CHECK(bytes.size() - records.data_offset == kVolumeRecordBytes * state.boids.size());
  for (std::size_t i = 0; i < state.boids.size(); ++i) {
    INFO("record " << i);
    Boid read;
    read.id = records.field(i, "id");
    read.species = records.field(i, "species");
    const auto float_field = [&](const std::string& name) {
      return std::bit_cast<float>(records.field(i, name));
    };
    set_motion(read, {float_field("x"), float_field("y"), float_field("z")},
               {float_field("vx"), float_field("vy"), float_field("vz")});
    read.age = records.field(i, "age");
    read.energy = std::bit_cast<float>(records.field(i, "energy"));
    CHECK(same_bits(read, state.boids[i]));
  }
}

TEST_CASE("a 3D state file is refused naming file, line, column and range", "[state][3d]") {
  TempDir dir;
  // Volume 100 x 50 x 40; species 0 (wrapper) wraps, species 1 (walled) is bounded.
  const Scenario volume = two_species_3d(100.0f, 50.0f, 40.0f, 2, 1);
  const Scenario plane = two_species(100.0f, 50.0f, 2, 1);
  const std::string header = "id,species,x,y,z,vx,vy,vz\n";
  const fs::path path = dir.path / "in.csv";
  const std::string name = path.string();
  const auto rejection = [&](const std::string& text, const Scenario& scenario) {
    write_text(path, text);
    return error_of<InputError>([&] { read_state_csv(path, scenario); });
  };

  write_text(path, header + "0,0,1,2,39.5,0.5,0.5,0.5\n1,1,3,4,40,0.5,0.5,0.5\n");
  REQUIRE(read_state_csv(path, volume).boids.size() == 2);  // the walled boid on the far wall

  struct Case {
    std::string text;
    std::string expected;  // after "<path>:"
  };
  // "id,species,x,y," is 15 characters: z starts at column 16. In a row "0,0,1,2,", z starts
  // at column 9 and vz, after "3,0.5,0.5,", at column 19.
  const Case cases[] = {
      {"id,species,x,y,vx,vy,age,energy\n0,0,1,2,0.5,0.5,0,0\n",
       "1:16: no z and vz columns: a 2D state file, but the world is 3D (world.dimensions = 3 in "
       "test.toml); expected \"id,species,x,y,z,vx,vy,vz,age,energy\""},
      {"id,species,x,y,vx,vy\n0,0,1,2,0.5,0.5\n",
       "1:16: no z and vz columns: a 2D state file, but the world is 3D (world.dimensions = 3"},
      {"id,species,x,y,vx,vy,vz,age,energy\n",
       "1:1: header must be \"id,species,x,y,z,vx,vy,vz,age,energy\" (or, without energies, "
       "\"id,species,x,y,z,vx,vy,vz,age\", or without ages, \"id,species,x,y,z,vx,vy,vz\"), found "
       "\"id,species,x,y,vx,vy,vz,age,energy\""},
      {header + "0,0,1,2,0.5,0.5,0.5\n",
       "2:1: 7 columns, expected 8 (id,species,x,y,z,vx,vy,vz)"},
      {header + "0,0,1,2,40,0.5,0.5,0.5\n",
       "2:9: z = 40: outside the world: must be >= 0 and < 40 (species wrapper is wrap)"},
      {header + "0,1,1,2,40.001,0.5,0.5,0.5\n",
       "2:9: z = 40.001: outside the world: must be >= 0 and <= 40 (species walled is bounded)"},
      {header + "0,1,1,2,-1e-30,0.5,0.5,0.5\n",
       "2:9: z = -1e-30: outside the world: must be >= 0 and <= 40 (species walled is bounded)"},
      {header + "0,0,1,2,nan,0.5,0.5,0.5\n", "2:9: z = \"nan\": must be a finite float32 number"},
      {header + "0,0,1,2,inf,0.5,0.5,0.5\n", "2:9: z = \"inf\": must be a finite float32 number"},
      {header + "0,0,1,2,3,0.5,0.5,nan\n", "2:19: vz = \"nan\": must be a finite float32 number"},
      {header + "0,0,1,2,3,0.5,0.5,-inf\n", "2:19: vz = \"-inf\": must be a finite float32 number"},
      {header + "0,0,1,2,3,0.5,0.5,1e39\n", "2:19: vz = \"1e39\": must be a finite float32 number"},
      {header + "0,0,1,2,3,0.5,nan,0.5\n", "2:15: vy = \"nan\": must be a finite float32 number"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK_THAT(rejection(c.text, volume), StartsWith(name + ":" + c.expected));
  }

  // A 3D file for a 2D world, whichever of its headers it has.
  for (const std::string& volume_header : {std::string("id,species,x,y,z,vx,vy,vz,age,energy"),
                                           std::string("id,species,x,y,z,vx,vy,vz")}) {
    INFO(volume_header);
    CHECK_THAT(rejection(volume_header + "\n", plane),
               StartsWith(name + ":1:16: z and vz columns: a 3D state file, but the world is 2D "
                                 "(world.dimensions = 2 in test.toml); expected "
                                 "\"id,species,x,y,vx,vy,age,energy\", found \"" +
                          volume_header + "\""));
  }
}

// --- energies and the food field ---------------------------------------------------------------
TEST_CASE("energies: the column reads back, older files take energy_initial, bad ones are "
          "rejected", "[state][ecosystem]") {
  TempDir dir;
  Scenario s = two_species(100.0f, 50.0f, 2, 1);
  s.species[0].energy_max = 10.0f;
  s.species[0].energy_initial = 6.5f;  // the walled species has no energy: 0
  const fs::path path = dir.path / "energy.csv";
  const std::string name = path.string();

  write_text(path, "id,species,x,y,vx,vy,age,energy\n0,0,1,2,0.5,0.5,3,9.75\n"
                   "1,1,3,4,0.5,0.5,0,0\n");
  const FlockState with = read_state_csv(path, s);
  CHECK(with.boids[0].energy == 9.75f);
  CHECK(with.boids[1].energy == 0.0f);
  write_text(path, "id,species,x,y,vx,vy,age\n0,0,1,2,0.5,0.5,3\n1,1,3,4,0.5,0.5,0\n");
  const FlockState without = read_state_csv(path, s);
  CHECK(without.boids[0].energy == 6.5f);
  CHECK(without.boids[1].energy == 0.0f);
  write_text(path, "id,species,x,y,vx,vy\n0,0,1,2,0.5,0.5\n");
  CHECK(read_state_csv(path, s).boids[0].energy == 6.5f);

  const auto rejection = [&](const std::string& row) {
    write_text(path, "id,species,x,y,vx,vy,age,energy\n" + row + "\n");
    return error_of<InputError>([&] { read_state_csv(path, s); });
  };
  CHECK(rejection("0,0,1,2,0.5,0.5,3,10.5") ==
        name + ":2:19: energy = 10.5: must be >= 0 and <= 10 (species wrapper's energy_max)");
  CHECK(rejection("0,0,1,2,0.5,0.5,3,-1") ==
        name + ":2:19: energy = -1: must be >= 0 and <= 10 (species wrapper's energy_max)");
  CHECK(rejection("0,1,1,2,0.5,0.5,3,0.5") ==
        name + ":2:19: energy = 0.5: must be >= 0 and <= 0 (species walled's energy_max)");
  CHECK(rejection("0,0,1,2,0.5,0.5,3,nan") ==
        name + ":2:19: energy = \"nan\": must be a finite float32 number");
  CHECK(rejection("0,0,1,2,0.5,0.5,3") == name + ":2:1: 7 columns, expected 8 (" +
                                              "id,species,x,y,vx,vy,age,energy)");
}

TEST_CASE("the initial food field: a fraction, the seeded pattern, patches in file order",
          "[state][ecosystem]") {
  Scenario s = two_species(100.0f, 50.0f, 3, 0);
  FoodParams food;
  food.cell_size = 20.0f;  // 5 x 3 cells; the top row reaches past the world (y up to 60)
  food.max_per_cell = 8.0f;
  food.initial = FoodInitial{0.25f, false};
  // Centres are 10, 30, 50, 70, 90 (x) and 10, 30, 50 (y).
  food.patches = {FoodPatch{30.0f, 10.0f, 40.0f, 20.0f, 5.0f},   // x centres 30, 50; y 10
                  FoodPatch{50.0f, 0.0f, 0.5f, 50.0f, 7.0f}};    // x 50 only; y 10, 30
  s.food = food;
  validate_scenario(s);
  const std::vector<float> field = initial_food(s);
  const std::vector<float> expected = {2, 5, 7, 2, 2,   // row 0 (y centre 10)
                                       2, 2, 7, 2, 2,   // row 1 (30): [10, 30) excludes 30
                                       2, 2, 2, 2, 2};  // row 2 (50)
  CHECK(field == expected);
  const FlockState start = seeded_start(s);
  CHECK(start.food == field);
  REQUIRE(start.totals.size() == 2);
  CHECK(start.totals[0] == SpeciesTotals{});

  // "random": Philox uniforms of (seed, cell, step 0, draw 0), the same for the same seed.
  s.food->initial = FoodInitial{0.0f, true};
  s.food->patches.clear();
  const std::vector<float> random = initial_food(s);
  REQUIRE(random.size() == 15);
  for (std::uint32_t c = 0; c < random.size(); ++c) {
    CHECK(random[c] == random_uniform(RandomDraw{s.world.seed, c, 0, 0}, 0.0f, 8.0f));
    CHECK(random[c] >= 0.0f);
    CHECK(random[c] <= 8.0f);
  }
  CHECK(random != std::vector<float>(15, random[0]));
  s.world.seed += 1;
  CHECK(initial_food(s) != random);

  // A state read from a file starts from the scenario's field, with zeroed totals.
  TempDir dir;
  write_text(dir.path / "f.csv", "id,species,x,y,vx,vy\n0,0,1,2,0.5,0.5\n");
  const FlockState read = read_state_csv(dir.path / "f.csv", s);
  CHECK(read.food == initial_food(s));
  CHECK(read.totals.size() == 2);
  s.food.reset();
  CHECK(initial_food(s).empty());
}

// --- start layouts ([[spawn]]) -----------------------------------------------------------------
namespace {

SpawnRegion rectangle_spawn(std::string species, std::uint32_t count, glm::vec2 corner,
                            glm::vec2 size, float min_speed, float max_speed) {
  SpawnRegion spawn;
  spawn.species = std::move(species);
  spawn.count = count;
  spawn.layout = SpawnLayout::Rectangle;
  spawn.x = corner.x;
  spawn.y = corner.y;
  spawn.width = size.x;
  spawn.height = size.y;
  spawn.min_speed = min_speed;
  spawn.max_speed = max_speed;
  return spawn;
}

// The heading of `v` in degrees, in [-180, 180].
double heading_degrees(glm::vec2 v) {
  return std::atan2(double(v.y), double(v.x)) * 180.0 / std::numbers::pi;
}

}  // namespace

TEST_CASE("[[spawn]] rectangles place their counts inside, with their velocity ranges, and "
          "other boids keep the uniform start bit for bit", "[state][spawn]") {
  Scenario s = two_species(300.0f, 200.0f, 700, 300);
  const FlockState uniform = seeded_start(s);
  // The wrap species' first 200 boids in one box, the next 100 in another; its last 400 and
  // every walled boid stay uniform.
  s.spawns = {rectangle_spawn("wrapper", 200, {10, 20}, {50, 40}, 0.25f, 0.5f),
              rectangle_spawn("wrapper", 100, {200, 150}, {100, 50}, 2.0f, 2.0f)};
  validate_scenario(s);
  const FlockState spawned = seeded_start(s);
  REQUIRE(spawned.boids.size() == uniform.boids.size());
  std::uint32_t in_first = 0, in_second = 0, unchanged = 0;
  for (std::uint32_t i = 0; i < spawned.boids.size(); ++i) {
    const Boid& b = spawned.boids[i];
    CHECK(b.id == i);
    CHECK(b.age == uniform.boids[i].age);
    const float speed = glm::length(b.vel);
    if (i < 200) {
      in_first += b.pos.x >= 10.0f && b.pos.x < 60.0f && b.pos.y >= 20.0f && b.pos.y < 60.0f;
      CHECK(speed >= 0.25f * (1.0f - 1e-6f));
      CHECK(speed <= 0.5f * (1.0f + 1e-6f));
    } else if (i < 300) {
      // x + width is the wrap world's far edge: positions stay below it.
      in_second += b.pos.x >= 200.0f && b.pos.x < 300.0f && b.pos.y >= 150.0f && b.pos.y < 200.0f;
      CHECK_THAT(speed, WithinAbs(2.0, 1e-5));
    } else {
      unchanged += same_bits(b, uniform.boids[i]);
    }
  }
  CHECK(in_first == 200);
  CHECK(in_second == 100);
  CHECK(unchanged == 700);
  // Deterministic by seed: the same bits again, other bits for another seed.
  CHECK(same_bits(seeded_start(s), spawned));
  s.world.seed = 7;
  const FlockState reseeded = seeded_start(s);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < 300; ++i) moved += reseeded.boids[i].pos != spawned.boids[i].pos;
  CHECK(moved == 300);
}

TEST_CASE("[[spawn]] over the whole world with the species' speeds is the uniform start",
          "[state][spawn]") {
  Scenario s = two_species(300.0f, 200.0f, 500, 500);
  const FlockState uniform = seeded_start(s);
  s.spawns = {rectangle_spawn("walled", 500, {0, 0}, {300, 200}, 0.5f, 0.75f)};
  validate_scenario(s);
  CHECK(same_bits(seeded_start(s), uniform));
}

TEST_CASE("[[spawn]] discs: every boid inside its disc, headings within their range",
          "[state][spawn]") {
  Scenario s = two_species(300.0f, 200.0f, 100, 1000);
  SpawnRegion disc;
  disc.species = "walled";
  disc.count = 1000;
  disc.layout = SpawnLayout::Disc;
  disc.x = 150.0f;
  disc.y = 100.0f;
  disc.radius = 40.0f;
  disc.min_speed = 1.0f;
  disc.max_speed = 1.0f;
  disc.heading_min = -30.0f;
  disc.heading_max = 60.0f;
  s.spawns = {disc};
  validate_scenario(s);
  const FlockState state = seeded_start(s);
  double lowest = 180.0, highest = -180.0, sum_distance_sq = 0.0;
  for (const Boid& b : state.boids) {
    if (b.species != 1) continue;
    const double distance = glm::length(glm::dvec2(b.pos) - glm::dvec2(150.0, 100.0));
    CHECK(distance <= 40.0 * (1.0 + 1e-6));
    sum_distance_sq += distance * distance;
    const double heading = heading_degrees(b.vel);
    lowest = std::min(lowest, heading);
    highest = std::max(highest, heading);
    CHECK_THAT(glm::length(b.vel), WithinAbs(1.0, 1e-5));
  }
  CHECK(lowest >= -30.0 - 1e-4);
  CHECK(highest <= 60.0 + 1e-4);
  // The range is covered, not a corner of it: 1000 draws come within 1 degree of each end.
  CHECK(lowest < -29.0);
  CHECK(highest > 59.0);
  // Uniform over the area: the mean squared distance from the centre is radius^2 / 2.
  CHECK_THAT(sum_distance_sq / 1000.0, WithinAbs(800.0, 40.0));
}

TEST_CASE("[[spawn]] clusters: origin 000's three growing squares and their velocities",
          "[state][spawn]") {
  // Origin 000: 151 red boids (indices 0..150) wrap around, 100 blue ones (151..250) are walled.
  Scenario s = two_species(398.0f, 398.0f, 151, 100);
  SpawnRegion red;
  red.species = "wrapper";
  red.count = 151;
  red.layout = SpawnLayout::Clusters;
  red.x = 8.0f;
  red.y = 8.0f;
  SpawnRegion blue = red;
  blue.species = "walled";
  blue.count = 100;
  blue.first_index = 151;
  s.spawns = {red, blue};
  validate_scenario(s);
  const FlockState state = seeded_start(s);
  REQUIRE(state.boids.size() == 251);
  // Each arm's square centre, in units of the square's side, from the origin (8, 8).
  const glm::dvec2 centres[3] = {{0.0, 0.0}, {0.0, 1.0}, {1.0, 0.0}};
  std::uint32_t clamped = 0;
  for (std::uint32_t i = 0; i < state.boids.size(); ++i) {
    const Boid& b = state.boids[i];
    const int arm = static_cast<int>(i % 3);
    const double side = i;  // spread 1: origin 000's m = i
    const glm::dvec2 centre = glm::dvec2(8.0, 8.0) + side * centres[arm];
    for (int axis = 0; axis < 2; ++axis) {
      double offset = double(b.pos[axis]) - centre[axis];
      if (b.species == 0) {
        offset -= 398.0 * std::round(offset / 398.0);  // the torus brings it back
      } else if (b.pos[axis] == 0.0f || b.pos[axis] == 398.0f) {
        ++clamped;  // a walled boid beyond a wall starts on it
        continue;
      }
      CHECK(std::abs(offset) <= side / 2.0 + 1e-3);
    }
    CHECK(b.pos.x >= 0.0f);
    CHECK(b.pos.y >= 0.0f);
    CHECK(b.pos.x <= 398.0f);
    CHECK(b.pos.y <= 398.0f);
    // Origin 000's velocities: (u - 1.5, v - 1.5), (-u, -v), (1.5 - u, v - 1.5), u, v in [0, 1).
    const glm::vec2 v = b.vel;
    if (arm == 0) CHECK((v.x >= -1.5f && v.x < -0.5f && v.y >= -1.5f && v.y < -0.5f));
    if (arm == 1) CHECK((v.x > -1.0f && v.x <= 0.0f && v.y > -1.0f && v.y <= 0.0f));
    if (arm == 2) CHECK((v.x > 0.5f && v.x <= 1.5f && v.y >= -1.5f && v.y < -0.5f));
  }
  // Squares of side 151..250 around (8, 8) reach past the walls for about half their boids.
  CHECK(clamped > 20);
  // The arm follows origin 000's index: blue's first boid (i = 151) is on arm 1.
  CHECK(state.boids[151].vel.x <= 0.0f);
  CHECK(state.boids[151].vel.y <= 0.0f);
}

TEST_CASE("origin 002's inset is a [[spawn]] rectangle 90 from each wall", "[state][spawn]") {
  const Scenario s = parse_scenario(
      "[world]\nwidth = 900\nheight = 760\n"
      "[[species]]\nname = \"birds\"\ncount = 230\ntopology = \"bounded\"\nperception_radius = 85\n"
      "separation_radius = 24\nmin_speed = 2\nmax_speed = 2\n"
      "[[spawn]]\nspecies = \"birds\"\ncount = 230\nx = 90\ny = 90\nwidth = 720\nheight = 580\n",
      "origin002.toml");
  const FlockState state = seeded_start(s);
  for (const Boid& b : state.boids) {
    CHECK(b.pos.x >= 90.0f);
    CHECK(b.pos.x < 810.0f);
    CHECK(b.pos.y >= 90.0f);
    CHECK(b.pos.y < 670.0f);
    CHECK_THAT(glm::length(b.vel), WithinAbs(2.0, 1e-5));
  }
}
