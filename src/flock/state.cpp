// Flock state: the CSV and .npy files (docs/scenarios.md, "State files"); the seeded start is
// start.cpp's.
//
// Sections: writing; CSV reading; .npy; the state's functions: the food field, reading and
// writing.
#include "murmur/flock/state.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/input_file.hpp"
#include "murmur/base/float_text.hpp"
#include "murmur/flock/grid.hpp"
#include "murmur/base/random.hpp"

namespace murmur {
namespace {

// ---- writing ---------------------------------------------------------------------------

constexpr std::string_view kCsvHeader = "id,species,x,y,vx,vy,age,energy";
constexpr std::size_t kCsvColumns = 8;
// Older files: without the energy column (energy_initial), or without age too (age 0).
constexpr std::string_view kCsvHeaderWithoutEnergy = "id,species,x,y,vx,vy,age";
constexpr std::size_t kCsvColumnsWithoutEnergy = 7;
constexpr std::string_view kCsvHeaderWithoutAge = "id,species,x,y,vx,vy";
constexpr std::size_t kCsvColumnsWithoutAge = 6;
constexpr std::array<std::string_view, kCsvColumns> kCsvColumnNames = {
    "id", "species", "x", "y", "vx", "vy", "age", "energy"};
constexpr std::size_t kAgeColumn = 6;
constexpr std::size_t kEnergyColumn = 7;

// The header of a file with `columns` columns (one of the three accepted).
std::string_view csv_header(std::size_t columns) {
  if (columns == kCsvColumnsWithoutAge) return kCsvHeaderWithoutAge;
  if (columns == kCsvColumnsWithoutEnergy) return kCsvHeaderWithoutEnergy;
  return kCsvHeader;
}

// One boid as a CSV row, its line break included.
void append_csv_row(std::string& row, const Boid& boid) {
  append_integer(row, boid.id);
  row += ',';
  append_integer(row, boid.species);
  for (const float value : {boid.pos.x, boid.pos.y, boid.vel.x, boid.vel.y}) {
    row += ',';
    append_float(row, value);
  }
  row += ',';
  append_integer(row, boid.age);
  row += ',';
  append_float(row, boid.energy);
  row += '\n';
}

// ---- CSV reading -----------------------------------------------------------------------

class CsvReader {
 public:
  CsvReader(std::string name, const Scenario& scenario)
      : name_(std::move(name)), scenario_(scenario) {}

  FlockState parse(std::string_view text) {
    const std::uint32_t total = scenario_.total_count();
    // Ids are any distinct uint32 values, so they are looked up, not used as indices.
    std::unordered_map<std::uint32_t, std::uint32_t> line_of_id;
    line_of_id.reserve(total);
    std::vector<std::uint32_t> species_counts(scenario_.species.size(), 0);
    FlockState state;
    state.boids.reserve(total);

    std::size_t position = 0;
    std::uint32_t line_number = 0;
    while (position < text.size()) {
      std::size_t end = text.find('\n', position);
      if (end == std::string::npos) end = text.size();
      std::string_view line(text.data() + position, end - position);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      position = end + 1;
      ++line_number;
      if (line_number == 1) {
        if (line == kCsvHeaderWithoutAge) {
          columns_ = kCsvColumnsWithoutAge;
        } else if (line == kCsvHeaderWithoutEnergy) {
          columns_ = kCsvColumnsWithoutEnergy;
        } else if (line != kCsvHeader) {
          fail(1, 1, "header must be \"" + std::string(kCsvHeader) +
                         "\" (or, without energies, \"" + std::string(kCsvHeaderWithoutEnergy) +
                         "\", or without ages, \"" +
                         std::string(kCsvHeaderWithoutAge) + "\"), found \"" +
                         std::string(line.substr(0, kCsvHeader.size() + 8)) + "\"");
        }
        continue;
      }
      const Boid boid = parse_row(line, line_number);
      const auto [first, inserted] = line_of_id.try_emplace(boid.id, line_number);
      if (!inserted) {
        fail(line_number, 1,
             "id = " + std::to_string(boid.id) + ": duplicate, first seen on line " +
                 std::to_string(first->second));
      }
      ++species_counts[boid.species];
      state.boids.push_back(boid);
    }
    if (line_number == 0) fail(1, 1, "empty file: expected the header \"" + std::string(kCsvHeader) + "\"");
    // A living population's counts differ from the scenario's starting counts: only the
    // capacity bounds them (docs/model.md, "A living population").
    if (state.boids.size() > scenario_.capacity()) {
      throw InputError(name_ + ": " + std::to_string(state.boids.size()) +
                       " boids, but the scenario" +
                       (scenario_.source.empty() ? "" : " " + scenario_.source) +
                       " holds at most " + std::to_string(scenario_.capacity()) +
                       " (world.capacity, or the species' total count)");
    }
    return state;
  }

 private:
  [[noreturn]] void fail(std::uint32_t line, std::size_t column, const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                     what);
  }

  Boid parse_row(std::string_view line, std::uint32_t line_number) const {
    std::array<std::string_view, kCsvColumns> fields;
    std::array<std::size_t, kCsvColumns> columns{};
    std::size_t count = 0;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      const std::size_t stop = comma == std::string_view::npos ? line.size() : comma;
      if (count < kCsvColumns) {
        fields[count] = line.substr(start, stop - start);
        columns[count] = start + 1;
      }
      ++count;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (count != columns_) {
      fail(line_number, 1,
           std::to_string(count) + " columns, expected " + std::to_string(columns_) + " (" +
               std::string(csv_header(columns_)) + ")");
    }

    Boid boid;
    boid.id = parse_index(fields[0], line_number, columns[0], kCsvColumnNames[0]);
    boid.species = parse_index(fields[1], line_number, columns[1], kCsvColumnNames[1]);
    if (boid.species >= scenario_.species.size()) {
      fail(line_number, columns[1],
           "species = " + std::to_string(boid.species) + ": must be < " +
               std::to_string(scenario_.species.size()) + " (the scenario's species count)");
    }
    const SpeciesParams& species = scenario_.species[boid.species];
    const glm::vec2 world = scenario_.size();
    boid.pos.x = parse_position(fields[2], line_number, columns[2], kCsvColumnNames[2], world.x, species);
    boid.pos.y = parse_position(fields[3], line_number, columns[3], kCsvColumnNames[3], world.y, species);
    boid.vel.x = parse_float(fields[4], line_number, columns[4], kCsvColumnNames[4]);
    boid.vel.y = parse_float(fields[5], line_number, columns[5], kCsvColumnNames[5]);
    if (columns_ > kAgeColumn) {
      boid.age = parse_index(fields[kAgeColumn], line_number, columns[kAgeColumn],
                             kCsvColumnNames[kAgeColumn]);
    }
    boid.energy = columns_ > kEnergyColumn
                      ? parse_energy(fields[kEnergyColumn], line_number, columns[kEnergyColumn],
                                     species)
                      : species.energy_initial;
    return boid;
  }

  std::uint32_t parse_index(std::string_view field, std::uint32_t line, std::size_t column,
                            std::string_view name) const {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc{} || end != field.data() + field.size() || field.empty()) {
      fail(line, column,
           std::string(name) + " = \"" + std::string(field) +
               "\": must be an unsigned 32-bit integer");
    }
    return value;
  }

  float parse_float(std::string_view field, std::uint32_t line, std::size_t column,
                    std::string_view name) const {
    float value = 0.0f;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc{} || end != field.data() + field.size() || field.empty() ||
        !std::isfinite(value)) {
      fail(line, column,
           std::string(name) + " = \"" + std::string(field) +
               "\": must be a finite float32 number");
    }
    return value;
  }

  // A boid's energy lies in [0, energy_max] (docs/model.md, "An ecosystem"): 0 for a species
  // without energy.
  float parse_energy(std::string_view field, std::uint32_t line, std::size_t column,
                     const SpeciesParams& species) const {
    const std::string_view name = kCsvColumnNames[kEnergyColumn];
    const float value = parse_float(field, line, column, name);
    if (!(value >= 0.0f && value <= species.energy_max)) {
      std::string bound;
      append_float(bound, species.energy_max);
      fail(line, column,
           std::string(name) + " = " + std::string(field) + ": must be >= 0 and <= " + bound +
               " (species " + species.name + "'s energy_max)");
    }
    return value;
  }

  float parse_position(std::string_view field, std::uint32_t line, std::size_t column,
                       std::string_view name, float length, const SpeciesParams& species) const {
    const float value = parse_float(field, line, column, name);
    const bool wraps = species.topology == Topology::Wrap;
    const bool inside = value >= 0.0f && (wraps ? value < length : value <= length);
    if (!inside) {
      std::string bound;
      append_float(bound, length);
      fail(line, column,
           std::string(name) + " = " + std::string(field) + ": outside the world: must be >= 0 and " +
               (wraps ? "< " : "<= ") + bound + " (species " +
               species.name + " is " + (wraps ? "wrap" : "bounded") + ")");
    }
    return value;
  }

  std::string name_;
  const Scenario& scenario_;
  std::size_t columns_ = kCsvColumns;  // from the header: with or without the age column
};

// ---- .npy ------------------------------------------------------------------------------

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr std::size_t kNpyMagicSize = sizeof kNpyMagic - 1;
constexpr unsigned char kNpyVersionMajor = 1;
constexpr unsigned char kNpyVersionMinor = 0;
// numpy aligns the data to 64 bytes: magic, version, header length and header together.
constexpr std::size_t kNpyAlignment = 64;
constexpr std::size_t kNpyPreambleSize = kNpyMagicSize + 2 + 2;
constexpr std::size_t kNpyRecordSize = 32;  // 2 x u4 + 4 x f4 + u4 + f4
constexpr std::size_t kRecordsPerChunk = 4096;

void put_u32_le(unsigned char* out, std::uint32_t value) {
  for (int byte = 0; byte < 4; ++byte) out[byte] = static_cast<unsigned char>(value >> (8 * byte));
}

std::string npy_header(std::size_t count) {
  std::string header =
      "{'descr': [('id', '<u4'), ('species', '<u4'), ('x', '<f4'), ('y', '<f4'), "
      "('vx', '<f4'), ('vy', '<f4'), ('age', '<u4'), ('energy', '<f4')], "
      "'fortran_order': False, 'shape': (" +
      std::to_string(count) + ",), }";
  const std::size_t unpadded = kNpyPreambleSize + header.size() + 1;  // + the final '\n'
  header.append((kNpyAlignment - unpadded % kNpyAlignment) % kNpyAlignment, ' ');
  header += '\n';
  return header;
}

}  // namespace

// --- the state's functions: the food field, reading and writing ----------------------------
void FlockState::sort_by_id() {
  std::sort(boids.begin(), boids.end(), [](const Boid& a, const Boid& b) { return a.id < b.id; });
}

std::uint32_t FlockState::resolved_next_id() const {
  if (next_id) return *next_id;
  std::uint32_t largest = 0;
  for (const Boid& b : boids) largest = std::max(largest, b.id);
  if (boids.empty()) return 0u;
  // Not largest + 1 mod 2^32: that would number the children of a flock holding the last id
  // from 0, over ids that may be alive. Held at the top, next_id lets no child be born.
  return largest == kLastNextId ? kLastNextId : largest + 1u;
}

void require_ids_for_births(std::uint64_t step, std::uint32_t next_id, std::uint64_t born) {
  const std::uint64_t next_id_after = std::uint64_t{next_id} + born;
  if (next_id_after <= kLastNextId) return;
  throw InputError("step " + std::to_string(step) + ": " + std::to_string(born) +
                   (born == 1 ? " birth" : " births") + " would take next_id from " +
                   std::to_string(next_id) + " to " + std::to_string(next_id_after) +
                   ", past " + std::to_string(kLastNextId) +
                   ": ids are 32-bit and never reused while alive (docs/model.md, \"Ids that "
                   "stay unique\"); start from a state with smaller ids");
}

std::vector<float> initial_food(const Scenario& scenario) {
  if (!scenario.food) return {};
  const FoodParams& food = *scenario.food;
  const GridShape grid = food_grid_shape(food, scenario.size());
  std::vector<float> field(grid.cell_count());
  for (std::uint32_t c = 0; c < field.size(); ++c) {
    field[c] = food.initial.random
                   ? random_uniform(RandomDraw{scenario.world.seed, c, 0, 0}, 0.0f,
                                    food.max_per_cell)
                   : food.initial.fraction * food.max_per_cell;
  }
  // A patch covers the cells whose centre lies in [x, x + width) x [y, y + height): the
  // columns and the rows inside it, independently.
  const auto centre = [&](int index) {
    return (static_cast<float>(index) + 0.5f) * food.cell_size;
  };
  for (const FoodPatch& patch : food.patches) {
    const float right = patch.x + patch.width;
    const float top = patch.y + patch.height;
    for (int row = 0; row < grid.cells.y; ++row) {
      if (!(centre(row) >= patch.y && centre(row) < top)) continue;
      for (int column = 0; column < grid.cells.x; ++column) {
        if (!(centre(column) >= patch.x && centre(column) < right)) continue;
        field[static_cast<std::size_t>(row) * static_cast<std::size_t>(grid.cells.x) +
              static_cast<std::size_t>(column)] = patch.amount;
      }
    }
  }
  return field;
}

namespace {

// On one axis, the part of old cell `from` (its span clipped to the world, [0, length]) that
// lies in new cell `to`, as a fraction of the clipped span.
struct AxisShare {
  int from;
  int to;
  double fraction;
};

std::vector<AxisShare> axis_shares(int from_cells, double from_size, int to_cells,
                                   double to_size, double length) {
  std::vector<AxisShare> shares;
  for (int k = 0; k < from_cells; ++k) {
    const double low = k * from_size;
    const double high = std::min((k + 1) * from_size, length);
    if (!(high > low)) continue;  // a cell wholly past the world holds no area
    const int first = std::clamp(static_cast<int>(std::floor(low / to_size)), 0, to_cells - 1);
    for (int j = first; j < to_cells && j * to_size < high; ++j) {
      const double overlap = std::min(high, (j + 1) * to_size) - std::max(low, j * to_size);
      if (overlap > 0) shares.push_back({k, j, overlap / (high - low)});
    }
  }
  return shares;
}

}  // namespace

bool food_field_needs_refit(const FoodParams& from, const FoodParams& to) {
  return from.cell_size != to.cell_size || to.max_per_cell < from.max_per_cell;
}

std::vector<float> refit_food_field(const FoodParams& from, const FoodParams& to,
                                    glm::vec2 world, std::span<const float> field) {
  const GridShape old_grid = food_grid_shape(from, world);
  const GridShape new_grid = food_grid_shape(to, world);
  const auto old_columns = static_cast<std::size_t>(old_grid.cells.x);
  const auto new_columns = static_cast<std::size_t>(new_grid.cells.x);
  // Area shares are products of the two axes' shares: spread along x, then along y.
  std::vector<double> by_column(static_cast<std::size_t>(old_grid.cells.y) * new_columns, 0.0);
  for (const AxisShare& x : axis_shares(old_grid.cells.x, from.cell_size, new_grid.cells.x,
                                        to.cell_size, world.x)) {
    for (std::size_t row = 0; row < static_cast<std::size_t>(old_grid.cells.y); ++row) {
      by_column[row * new_columns + x.to] += x.fraction * field[row * old_columns + x.from];
    }
  }
  std::vector<double> spread(new_grid.cell_count(), 0.0);
  for (const AxisShare& y : axis_shares(old_grid.cells.y, from.cell_size, new_grid.cells.y,
                                        to.cell_size, world.y)) {
    for (std::size_t column = 0; column < new_columns; ++column) {
      spread[static_cast<std::size_t>(y.to) * new_columns + column] +=
          y.fraction * by_column[static_cast<std::size_t>(y.from) * new_columns + column];
    }
  }
  std::vector<float> refitted(spread.size());
  for (std::size_t c = 0; c < spread.size(); ++c) {
    refitted[c] = std::min(static_cast<float>(spread[c]), to.max_per_cell);
  }
  return refitted;
}

FlockState read_state_csv(const std::filesystem::path& path, const Scenario& scenario) {
  return parse_state_csv(read_input_file(path, "state file"), path.string(), scenario);
}

FlockState parse_state_csv(std::string_view text, const std::string& source,
                           const Scenario& scenario) {
  FlockState state = CsvReader(source, scenario).parse(text);
  // Files carry boids only: the field and the counters start afresh.
  state.food = initial_food(scenario);
  state.totals.assign(scenario.species.size(), SpeciesTotals{});
  return state;
}

void write_state_csv(const std::filesystem::path& path, const FlockState& state) {
  AtomicFile file(path);
  file.write(std::string(kCsvHeader).append("\n"));
  std::string row;
  for (const Boid& boid : state.boids) {
    if (!file.ok()) break;  // commit() reports the first failed write
    row.clear();
    append_csv_row(row, boid);
    file.write(row);
  }
  file.commit();
}

FlockState carried_state(const FlockState& state, const Scenario& scenario,
                         const std::string& source) {
  // Through the text of its file, so that its boids meet every check a file's meet.
  std::string text = std::string(kCsvHeader) + "\n";
  for (const Boid& boid : state.boids) append_csv_row(text, boid);
  FlockState carried = parse_state_csv(text, source, scenario);
  if (state.food.size() != carried.food.size()) {
    throw InputError(source + ": a food field of " + std::to_string(state.food.size()) +
                     " cells, the scenario's has " + std::to_string(carried.food.size()));
  }
  carried.food = state.food;
  carried.totals = state.totals;
  carried.totals.resize(scenario.species.size());
  carried.step = state.step;
  carried.next_id = state.resolved_next_id();
  return carried;
}

void write_state_npy(const std::filesystem::path& path, const FlockState& state) {
  AtomicFile file(path);
  const std::string header = npy_header(state.boids.size());
  file.write(kNpyMagic, kNpyMagicSize);
  const unsigned char version_and_length[4] = {
      kNpyVersionMajor, kNpyVersionMinor, static_cast<unsigned char>(header.size() & 0xff),
      static_cast<unsigned char>(header.size() >> 8)};
  file.write(version_and_length, sizeof version_and_length);
  file.write(header);

  std::vector<unsigned char> chunk(kRecordsPerChunk * kNpyRecordSize);
  for (std::size_t first = 0; first < state.boids.size() && file.ok(); first += kRecordsPerChunk) {
    const std::size_t n = std::min(kRecordsPerChunk, state.boids.size() - first);
    for (std::size_t k = 0; k < n; ++k) {
      const Boid& boid = state.boids[first + k];
      unsigned char* record = chunk.data() + k * kNpyRecordSize;
      const std::uint32_t fields[] = {boid.id,
                                      boid.species,
                                      std::bit_cast<std::uint32_t>(boid.pos.x),
                                      std::bit_cast<std::uint32_t>(boid.pos.y),
                                      std::bit_cast<std::uint32_t>(boid.vel.x),
                                      std::bit_cast<std::uint32_t>(boid.vel.y),
                                      boid.age,
                                      std::bit_cast<std::uint32_t>(boid.energy)};
      for (std::size_t f = 0; f < std::size(fields); ++f) put_u32_le(record + 4 * f, fields[f]);
    }
    file.write(chunk.data(), n * kNpyRecordSize);
  }
  file.commit();
}

void write_state(const std::filesystem::path& path, const FlockState& state) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".npy") {
    write_state_npy(path, state);
  } else if (extension == ".csv") {
    write_state_csv(path, state);
  } else {
    throw InputError(path.string() + ": unknown state file extension \"" +
                     path.extension().string() + "\" (accepted: .csv, .npy)");
  }
}

}  // namespace murmur
