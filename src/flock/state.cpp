// Flock state: the CSV and .npy files (docs/scenarios.md, "State files"); the seeded start is
// start.cpp's.
//
// Sections: the columns; writing; CSV reading; .npy; the state's functions: the food field,
// reading and writing. The seeded start is start.cpp's.
#include "murmur/flock/state.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <span>
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

// One column of a state file: its name, whether it holds a float (else an unsigned integer),
// and a boid's value in it as its 32 bits. The CSV header, the CSV rows and the .npy dtype and
// records are all made from one list of these, so the three cannot disagree on the order.
struct StateColumn {
  std::string_view name;
  bool is_float;
  std::uint32_t (*bits)(const Boid&);
};

std::uint32_t float_bits(float value) { return std::bit_cast<std::uint32_t>(value); }

constexpr StateColumn kIdColumn{"id", false, [](const Boid& b) { return b.id; }};
constexpr StateColumn kSpeciesColumn{"species", false, [](const Boid& b) { return b.species; }};
constexpr StateColumn kXColumn{"x", true, [](const Boid& b) { return float_bits(b.pos.x); }};
constexpr StateColumn kYColumn{"y", true, [](const Boid& b) { return float_bits(b.pos.y); }};
constexpr StateColumn kZColumn{"z", true, [](const Boid& b) { return float_bits(b.z); }};
constexpr StateColumn kVxColumn{"vx", true, [](const Boid& b) { return float_bits(b.vel.x); }};
constexpr StateColumn kVyColumn{"vy", true, [](const Boid& b) { return float_bits(b.vel.y); }};
constexpr StateColumn kVzColumn{"vz", true, [](const Boid& b) { return float_bits(b.vz); }};
constexpr StateColumn kAgeColumn{"age", false, [](const Boid& b) { return b.age; }};
constexpr StateColumn kEnergyColumn{"energy", true,
                                    [](const Boid& b) { return float_bits(b.energy); }};

// A plane's columns, and a volume's with z after y and vz after vy (docs/scenarios.md, "State
// files"). A file may leave out the last column (energy) or the last two (age and energy).
constexpr std::array kPlaneColumns = {kIdColumn, kSpeciesColumn, kXColumn, kYColumn,
                                      kVxColumn, kVyColumn, kAgeColumn, kEnergyColumn};
constexpr std::array kVolumeColumns = {kIdColumn, kSpeciesColumn, kXColumn, kYColumn,
                                       kZColumn, kVxColumn, kVyColumn, kVzColumn,
                                       kAgeColumn, kEnergyColumn};
constexpr std::size_t kMostColumns = kVolumeColumns.size();
// What a file may leave out, from the end: energy, then age.
constexpr std::size_t kWithoutEnergy = 1;
constexpr std::size_t kWithoutAge = 2;

using Columns = std::span<const StateColumn>;

// world.dimensions of a volume (docs/model.md, "Three dimensions"); the plane's is the other.
constexpr std::uint32_t kVolumeDimensions = 3;

Columns columns_of(bool volume) {
  return volume ? Columns(kVolumeColumns) : Columns(kPlaneColumns);
}
// The state's columns are the world's: a 3D scenario's state has z and vz whatever its values,
// so a volume is never written without them and a plane's files keep their bytes.
Columns columns_of(const Scenario& scenario) { return columns_of(is_3d(scenario)); }

std::string csv_header(Columns columns) {
  std::string header;
  for (const StateColumn& column : columns) {
    if (!header.empty()) header += ',';
    header += column.name;
  }
  return header;
}

// The 1-based character column where the header's k-th column starts.
std::size_t header_position(Columns columns, std::size_t k) {
  std::size_t position = 1;
  for (std::size_t i = 0; i < k; ++i) position += columns[i].name.size() + 1;
  return position;
}

std::size_t index_of(Columns columns, std::string_view name) {
  const auto found = std::find_if(columns.begin(), columns.end(),
                                  [&](const StateColumn& column) { return column.name == name; });
  return static_cast<std::size_t>(found - columns.begin());
}

// ---- writing ---------------------------------------------------------------------------

// One boid as a CSV row, its line break included.
void append_csv_row(std::string& row, const Boid& boid, Columns columns) {
  bool first = true;
  for (const StateColumn& column : columns) {
    if (!first) row += ',';
    first = false;
    const std::uint32_t bits = column.bits(boid);
    if (column.is_float) {
      append_float(row, std::bit_cast<float>(bits));
    } else {
      append_integer(row, bits);
    }
  }
  row += '\n';
}

// ---- CSV reading -----------------------------------------------------------------------

class CsvReader {
 public:
  CsvReader(std::string name, const Scenario& scenario)
      : name_(std::move(name)), scenario_(scenario), columns_(columns_of(scenario)) {}

  FlockState parse(std::string_view text) {
    const std::uint32_t total = scenario_.total_count();
    // Ids are any distinct uint32 values, so they are looked up, not used as indices.
    std::unordered_map<std::uint32_t, std::uint32_t> line_of_id;
    line_of_id.reserve(total);
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
        read_header(line);
        continue;
      }
      const Boid boid = parse_row(line, line_number);
      const auto [first, inserted] = line_of_id.try_emplace(boid.id, line_number);
      if (!inserted) {
        fail(line_number, 1,
             "id = " + std::to_string(boid.id) + ": duplicate, first seen on line " +
                 std::to_string(first->second));
      }
      state.boids.push_back(boid);
    }
    if (line_number == 0) {
      fail(1, 1, "empty file: expected the header \"" + csv_header(columns_) + "\"");
    }
    // A living population's counts differ from the scenario's starting counts: only the
    // capacity bounds them (docs/model.md, "A living population").
    if (state.boids.size() > scenario_.capacity()) {
      throw InputError(name_ + ": " + std::to_string(state.boids.size()) +
                       " boids, but the scenario" + scenario_name() +
                       " holds at most " + std::to_string(scenario_.capacity()) +
                       " (world.capacity, or the species' total count)");
    }
    return state;
  }

 private:
  // A field of a row: its text, its 1-based character column and its column's name.
  struct Field {
    std::string_view text;
    std::size_t column;
    std::string_view name;
  };

  [[noreturn]] void fail(std::uint32_t line, std::size_t column, const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                     what);
  }

  std::string scenario_name() const {
    return scenario_.source.empty() ? "" : " " + scenario_.source;
  }

  // Which of the scenario's headers the file has; a header of the other number of dimensions
  // is refused by name, as the likeliest mistake.
  void read_header(std::string_view line) {
    const auto accepted = [&](Columns columns) -> std::optional<std::size_t> {
      for (const std::size_t left_out : {std::size_t{0}, kWithoutEnergy, kWithoutAge}) {
        const std::size_t count = columns.size() - left_out;
        if (line == csv_header(columns.first(count))) return count;
      }
      return std::nullopt;
    };
    if (const std::optional<std::size_t> count = accepted(columns_)) {
      present_ = columns_.first(*count);
      return;
    }
    const bool volume = is_3d(scenario_);
    const Columns other = columns_of(!volume);
    const std::string found =
        "\"" + std::string(line.substr(0, csv_header(columns_).size() + 8)) + "\"";
    if (accepted(other)) {
      // The z column is where the two kinds of header first differ.
      const std::size_t z_column =
          header_position(kVolumeColumns, index_of(kVolumeColumns, kZColumn.name));
      const std::string dimensions = "world.dimensions = " +
                                     std::to_string(scenario_.world.dimensions) +
                                     (scenario_.source.empty() ? "" : " in " + scenario_.source);
      fail(1, z_column,
           volume ? "no z and vz columns: a 2D state file, but the world is 3D (" + dimensions +
                        "); expected \"" + csv_header(columns_) + "\", found " + found
                  : "z and vz columns: a 3D state file, but the world is 2D (" + dimensions +
                        "); expected \"" + csv_header(columns_) + "\", found " + found);
    }
    fail(1, 1, "header must be \"" + csv_header(columns_) + "\" (or, without energies, \"" +
                   csv_header(columns_.first(columns_.size() - kWithoutEnergy)) +
                   "\", or without ages, \"" +
                   csv_header(columns_.first(columns_.size() - kWithoutAge)) + "\"), found " +
                   found);
  }

  Boid parse_row(std::string_view line, std::uint32_t line_number) const {
    std::array<Field, kMostColumns> fields;
    std::size_t count = 0;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      const std::size_t stop = comma == std::string_view::npos ? line.size() : comma;
      if (count < present_.size()) {
        fields[count] = {line.substr(start, stop - start), start + 1, present_[count].name};
      }
      ++count;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (count != present_.size()) {
      fail(line_number, 1,
           std::to_string(count) + " columns, expected " + std::to_string(present_.size()) +
               " (" + csv_header(present_) + ")");
    }

    // The fields in the header's order: id, species, x, y, [z,] vx, vy, [vz,] [age, [energy]].
    std::size_t next = 0;
    const auto take = [&]() -> const Field& { return fields[next++]; };
    const bool volume = is_3d(scenario_);
    Boid boid;
    boid.id = parse_index(take(), line_number);
    const Field& species_field = take();
    boid.species = parse_index(species_field, line_number);
    if (boid.species >= scenario_.species.size()) {
      fail(line_number, species_field.column,
           "species = " + std::to_string(boid.species) + ": must be < " +
               std::to_string(scenario_.species.size()) + " (the scenario's species count)");
    }
    const SpeciesParams& species = scenario_.species[boid.species];
    const glm::vec3 world = world_box(scenario_);
    boid.pos.x = parse_position(take(), line_number, world.x, species);
    boid.pos.y = parse_position(take(), line_number, world.y, species);
    if (volume) boid.z = parse_position(take(), line_number, world.z, species);
    boid.vel.x = parse_float(take(), line_number);
    boid.vel.y = parse_float(take(), line_number);
    if (volume) boid.vz = parse_float(take(), line_number);
    if (next < count) boid.age = parse_index(take(), line_number);
    boid.energy = next < count ? parse_energy(take(), line_number, species)
                               : species.energy_initial;
    return boid;
  }

  std::uint32_t parse_index(const Field& field, std::uint32_t line) const {
    std::uint32_t value = 0;
    const std::string_view text = field.text;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || text.empty()) {
      fail(line, field.column,
           std::string(field.name) + " = \"" + std::string(text) +
               "\": must be an unsigned 32-bit integer");
    }
    return value;
  }

  float parse_float(const Field& field, std::uint32_t line) const {
    float value = 0.0f;
    const std::string_view text = field.text;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || text.empty() ||
        !std::isfinite(value)) {
      fail(line, field.column,
           std::string(field.name) + " = \"" + std::string(text) +
               "\": must be a finite float32 number");
    }
    return value;
  }

  // A boid's energy lies in [0, energy_max] (docs/model.md, "An ecosystem"): 0 for a species
  // without energy.
  float parse_energy(const Field& field, std::uint32_t line, const SpeciesParams& species) const {
    const float value = parse_float(field, line);
    if (!(value >= 0.0f && value <= species.energy_max)) {
      std::string bound;
      append_float(bound, species.energy_max);
      fail(line, field.column,
           std::string(field.name) + " = " + std::string(field.text) + ": must be >= 0 and <= " +
               bound + " (species " + species.name + "'s energy_max)");
    }
    return value;
  }

  float parse_position(const Field& field, std::uint32_t line, float length,
                       const SpeciesParams& species) const {
    const float value = parse_float(field, line);
    const bool wraps = species.topology == Topology::Wrap;
    const bool inside = value >= 0.0f && (wraps ? value < length : value <= length);
    if (!inside) {
      std::string bound;
      append_float(bound, length);
      fail(line, field.column,
           std::string(field.name) + " = " + std::string(field.text) +
               ": outside the world: must be >= 0 and " + (wraps ? "< " : "<= ") + bound +
               " (species " + species.name + " is " + (wraps ? "wrap" : "bounded") + ")");
    }
    return value;
  }

  std::string name_;
  const Scenario& scenario_;
  Columns columns_;  // every column the scenario's state has
  Columns present_;  // those the file's header names: all, or without energy, or age too
};

// ---- .npy ------------------------------------------------------------------------------

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr std::size_t kNpyMagicSize = sizeof kNpyMagic - 1;
constexpr unsigned char kNpyVersionMajor = 1;
constexpr unsigned char kNpyVersionMinor = 0;
// numpy aligns the data to 64 bytes: magic, version, header length and header together.
constexpr std::size_t kNpyAlignment = 64;
constexpr std::size_t kNpyPreambleSize = kNpyMagicSize + 2 + 2;
constexpr std::size_t kNpyFieldSize = 4;  // every column is a u4 or an f4
constexpr std::size_t kRecordsPerChunk = 4096;

void put_u32_le(unsigned char* out, std::uint32_t value) {
  for (int byte = 0; byte < 4; ++byte) out[byte] = static_cast<unsigned char>(value >> (8 * byte));
}

std::string npy_header(Columns columns, std::size_t count) {
  std::string descr;
  for (const StateColumn& column : columns) {
    if (!descr.empty()) descr += ", ";
    descr += "('" + std::string(column.name) + "', '" + (column.is_float ? "<f4" : "<u4") + "')";
  }
  std::string header = "{'descr': [" + descr + "], 'fortran_order': False, 'shape': (" +
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

MemoryNeed flock_state_memory(const Scenario& scenario) {
  const std::uint64_t food_cells =
      scenario.food ? food_grid_shape(*scenario.food, scenario.size()).cell_count() : 0;
  return {sizeof(float) * food_cells + sizeof(SpeciesTotals) * scenario.species.size(),
          sizeof(Boid)};
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

void write_state_csv(const std::filesystem::path& path, const FlockState& state,
                     const Scenario& scenario) {
  const Columns columns = columns_of(scenario);
  AtomicFile file(path);
  file.write(csv_header(columns).append("\n"));
  std::string row;
  for (const Boid& boid : state.boids) {
    if (!file.ok()) break;  // commit() reports the first failed write
    row.clear();
    append_csv_row(row, boid, columns);
    file.write(row);
  }
  file.commit();
}

FlockState carried_state(const FlockState& state, std::uint32_t state_dimensions,
                         const Scenario& scenario, const std::string& source) {
  // Through the text of its file, in its own world's columns, so that its boids meet every
  // check a file's meet, a state of the other number of dimensions included.
  const Columns columns = columns_of(state_dimensions == kVolumeDimensions);
  std::string text = csv_header(columns) + "\n";
  for (const Boid& boid : state.boids) append_csv_row(text, boid, columns);
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

void write_state_npy(const std::filesystem::path& path, const FlockState& state,
                     const Scenario& scenario) {
  const Columns columns = columns_of(scenario);
  const std::size_t record_size = kNpyFieldSize * columns.size();
  AtomicFile file(path);
  const std::string header = npy_header(columns, state.boids.size());
  file.write(kNpyMagic, kNpyMagicSize);
  const unsigned char version_and_length[4] = {
      kNpyVersionMajor, kNpyVersionMinor, static_cast<unsigned char>(header.size() & 0xff),
      static_cast<unsigned char>(header.size() >> 8)};
  file.write(version_and_length, sizeof version_and_length);
  file.write(header);

  std::vector<unsigned char> chunk(kRecordsPerChunk * record_size);
  for (std::size_t first = 0; first < state.boids.size() && file.ok(); first += kRecordsPerChunk) {
    const std::size_t n = std::min(kRecordsPerChunk, state.boids.size() - first);
    for (std::size_t k = 0; k < n; ++k) {
      const Boid& boid = state.boids[first + k];
      unsigned char* record = chunk.data() + k * record_size;
      for (std::size_t f = 0; f < columns.size(); ++f) {
        put_u32_le(record + kNpyFieldSize * f, columns[f].bits(boid));
      }
    }
    file.write(chunk.data(), n * record_size);
  }
  file.commit();
}

void write_state(const std::filesystem::path& path, const FlockState& state,
                 const Scenario& scenario) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".npy") {
    write_state_npy(path, state, scenario);
  } else if (extension == ".csv") {
    write_state_csv(path, state, scenario);
  } else {
    throw InputError(path.string() + ": unknown state file extension \"" +
                     path.extension().string() + "\" (accepted: .csv, .npy)");
  }
}

}  // namespace murmur
