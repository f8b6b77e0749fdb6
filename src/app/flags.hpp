#pragma once
// The flags of the murmur commands, declared once each in the table flags.def: name, value
// name, type, accepted values, default, help, the commands that take it and its rules with
// other flags. add_flags turns a command's rows into CLI11 options (their --help lines and
// their refusals of a bad value: one line naming the flag, the accepted range and the word);
// what the command line gives lands in FlagValues, which the command reads.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend.hpp"
#include "murmur/flock/gpu/gpu_flock.hpp"
#include "murmur/plan/export/plan_export.hpp"
#include "murmur/render/video_writer.hpp"
#include "murmur/study/sweep.hpp"

namespace CLI {
class App;
}

namespace murmur::cli {

struct Range {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

struct RealRange {
  double min = 0;
  double max = 0;
};

struct FrameSize {
  int width = 0;
  int height = 0;
};

// The PNG of `murmur plan` is one image in memory: 16384 x 16384 RGBA is 1 GiB, enough for a
// city plate.
inline constexpr Range kPlanImageSideRange{1, 16384};

// What `murmur record` writes: --out's extension decides (mp4, webm, else PNG frames), or
// --format names it.
enum class RecordFormat { kByExtension, kPng, kMp4, kWebm };

// Whether a command line must give a flag. A flag of an exactly-one group is listed under the
// group's name, and the command line gives exactly one of the group's flags.
struct Need {
  bool required = false;
  const char* exactly_one_of = nullptr;
};
inline constexpr Need kOptional{};
inline constexpr Need kRequired{true};
constexpr Need exactly_one_of(const char* group) { return {false, group}; }

// The value of every flag of flags.def, its default until the command line gives another.
struct FlagValues {
  FlagValues();

#define MURMUR_FLAG(id, name, value_name, type, ...) type id{};
#include "flags.def"

  // Whether the command line gave the flag `name` ("--sizes"), rather than its default.
  bool given(std::string_view name) const;
  std::vector<std::string> given_names;
};

// `text` in single quotes, as a refused word is shown.
inline std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

// The words with `separator` between them.
template <typename Words>
std::string join(const Words& words, std::string_view separator) {
  std::string out;
  for (const auto& word : words) {
    if (!out.empty()) out += separator;
    out += word;
  }
  return out;
}

// Declares the flags that flags.def lists for `command` (by its name), in the table's order,
// with their rules; parsing writes them into `values`.
void add_flags(CLI::App& command, FlagValues& values);
// Each flag of `values` that `command` (its name) takes, as the words that give it on a command
// line: its name and its value's word, or its name alone for a switch that is on; a flag
// without a value (an optional one unset, an empty text or list, a switch off) is left out.
// How `murmur sweep` hands its sweep to each of its jobs, and the flags its journal records.
std::vector<std::vector<std::string>> flag_words(const FlagValues& values,
                                                 std::string_view command);
// Throws std::logic_error unless every row of flags.def names commands of `commands` and
// rules with ids of flags.def.
void check_flag_table(const std::vector<std::string>& commands);

}  // namespace murmur::cli
