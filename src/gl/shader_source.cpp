// `#include` expansion with `#line` bookkeeping, and driver info logs mapped back to file:line.
//
// GLSL's `#line L N` says "the next line is line L of source string N". The main file is
// string 0; each included file gets the next number, in order of first inclusion, and
// ShaderSource::files[N] names it. Drivers do not all report N faithfully: Mesa 22 reports
// string 0 for errors located at some expressions even after `#line 1 2`. So the file is
// encoded in the line number too: line L of file N is emitted as line N * kFileLineStride + L,
// and locations are decoded from the line number alone.
//
// Files named in messages are shown as "shaders/<name>" when they come from the embedded set
// (that is where they live in the repository) and by their key otherwise (tests pass their
// own maps).
#include "murmur/gl/shader_source.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "murmur/base/errors.hpp"

namespace murmur::gl {
namespace {

constexpr std::string_view kEmbeddedPrefix = "shaders/";
// Lines per file in the emitted numbering (see the top of this file); a file must be shorter.
constexpr int kFileLineStride = 10000;

struct Location {
  int file;
  int line;
};

Location decode_line(int emitted_line) {
  return {emitted_line / kFileLineStride, emitted_line % kFileLineStride};
}

std::string line_directive(int file, int line) {
  return "#line " + std::to_string(file * kFileLineStride + line) + " " + std::to_string(file) +
         "\n";
}

// Source lines shown around each located message: the line itself and one either side.
constexpr int kContextLinesEachSide = 1;

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::string_view trim_left(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  return first == std::string_view::npos ? std::string_view{} : text.substr(first);
}

// `#` then optional blanks then `directive`, as the GLSL preprocessor allows.
bool is_directive(std::string_view line, std::string_view directive) {
  line = trim_left(line);
  if (line.empty() || line.front() != '#') return false;
  line = trim_left(line.substr(1));
  if (line.substr(0, directive.size()) != directive) return false;
  const std::string_view rest = line.substr(directive.size());
  return rest.empty() || rest.front() == ' ' || rest.front() == '\t' || rest.front() == '"' ||
         rest.front() == '<';
}

// The name in `#include "name"` (a trailing // comment is allowed), or nullopt if malformed.
std::optional<std::string> include_target(std::string_view line) {
  static const std::regex pattern(R"re(^\s*#\s*include\s*"([^"]+)"\s*(//.*)?$)re");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(line.begin(), line.end(), match, pattern)) return std::nullopt;
  return match[1].str();
}

class Preprocessor {
 public:
  Preprocessor(const std::map<std::string, std::string_view>& files, bool embedded)
      : files_(files), embedded_(embedded) {}

  ShaderSource run(const std::string& name, const std::string& defines) {
    const auto main = files_.find(name);
    if (main == files_.end()) {
      throw GpuError(display(name) + ": no such shader file");
    }
    const auto lines = split_lines(main->second);
    if (lines.empty() || !is_directive(lines.front(), "version")) {
      throw GpuError(display(name) + ":1: a shader must start with #version");
    }
    source_.files.push_back(display(name));
    included_.insert(name);
    stack_.push_back(name);
    out_ << lines.front() << '\n';
    if (!defines.empty()) {
      out_ << defines;
      if (defines.back() != '\n') out_ << '\n';
    }
    constexpr int kFirstLineAfterVersion = 2;
    out_ << line_directive(0, kFirstLineAfterVersion);
    expand(lines, 0, kFirstLineAfterVersion - 1);
    source_.text = out_.str();
    return std::move(source_);
  }

 private:
  std::string display(const std::string& name) const {
    return embedded_ ? std::string(kEmbeddedPrefix) + name : name;
  }

  // Emits lines[first..] of the file numbered `file_index`, expanding includes.
  void expand(const std::vector<std::string_view>& lines, int file_index, std::size_t first) {
    const std::string file_name = stack_.back();  // a copy: expanding pushes onto stack_
    if (lines.size() >= static_cast<std::size_t>(kFileLineStride)) {
      throw GpuError(display(file_name) + ": " + std::to_string(lines.size()) +
                     " lines; shader files must have fewer than " +
                     std::to_string(kFileLineStride));
    }
    for (std::size_t index = first; index < lines.size(); ++index) {
      const std::string_view line = lines[index];
      const int line_number = static_cast<int>(index) + 1;
      const std::string where = display(file_name) + ":" + std::to_string(line_number) + ": ";
      if (is_directive(line, "version") && file_index != 0) {
        throw GpuError(where + "#version belongs in the main shader file only");
      }
      if (!is_directive(line, "include")) {
        out_ << line << '\n';
        continue;
      }
      const auto target = include_target(line);
      if (!target) {
        throw GpuError(where + "malformed #include: write #include \"name\"");
      }
      if (std::find(stack_.begin(), stack_.end(), *target) != stack_.end()) {
        std::string chain;
        for (const auto& open : stack_) chain += open + " -> ";
        throw GpuError(where + "cannot include \"" + *target + "\": include cycle " + chain +
                       *target);
      }
      const auto found = files_.find(*target);
      if (found == files_.end()) {
        throw GpuError(where + "cannot include \"" + *target + "\": no such shader file");
      }
      if (!included_.insert(*target).second) {
        // Already expanded once: the blank line keeps this file's line numbers in step.
        out_ << '\n';
        continue;
      }
      const int child_index = static_cast<int>(source_.files.size());
      source_.files.push_back(display(*target));
      out_ << line_directive(child_index, 1);
      stack_.push_back(*target);
      expand(split_lines(found->second), child_index, 0);
      stack_.pop_back();
      out_ << line_directive(file_index, line_number + 1);
    }
  }

  const std::map<std::string, std::string_view>& files_;
  bool embedded_;
  ShaderSource source_;
  std::set<std::string> included_;
  std::vector<std::string> stack_;  // files being expanded, outermost first
  std::ostringstream out_;
};

// Where each (file, line) of the original sources sits in the preprocessed text, rebuilt
// from the `#line` directives this file emits.
using SourceLines = std::map<std::pair<int, int>, std::string_view>;

SourceLines index_source_lines(const std::string& text) {
  static const std::regex directive(R"(^#line (\d{1,9}) \d+$)");
  SourceLines lines;
  Location at{0, 1};
  for (const std::string_view raw : split_lines(text)) {
    std::match_results<std::string_view::const_iterator> match;
    if (std::regex_match(raw.begin(), raw.end(), match, directive)) {
      at = decode_line(std::stoi(match[1].str()));
      continue;
    }
    lines[{at.file, at.line}] = raw;
    ++at.line;
  }
  return lines;
}

void append_context(std::string& out, const SourceLines& lines, int file, int line) {
  for (int shown = line - kContextLinesEachSide; shown <= line + kContextLinesEachSide; ++shown) {
    const auto found = lines.find({file, shown});
    if (found == lines.end()) continue;
    char number[32];
    std::snprintf(number, sizeof number, "%c %4d | ", shown == line ? '>' : ' ', shown);
    out += number;
    out += found->second;
    out += '\n';
  }
}

}  // namespace

ShaderSource preprocess_shader(const std::string& name,
                               const std::map<std::string, std::string_view>& files,
                               const std::string& defines) {
  const bool embedded = &files == &embedded_shader_files();
  return Preprocessor(files, embedded).run(name, defines);
}

std::string format_shader_log(const std::string& log, const ShaderSource& source) {
  // Mesa: `0:12(5): error: ...`; NVIDIA: `0(12) : error C0000: ...`.
  static const std::regex mesa(R"(^(\d{1,9}):(\d{1,9})\(\d+\): (.*)$)");
  static const std::regex nvidia(R"(^(\d{1,9})\((\d{1,9})\) : (error|warning) (C\d+): (.*)$)");
  struct Entry {
    std::string text;
    std::optional<Location> at;  // where the source context comes from, if located
  };
  std::vector<Entry> entries;
  for (const std::string_view raw : split_lines(log)) {
    std::match_results<std::string_view::const_iterator> match;
    std::string message;
    if (std::regex_match(raw.begin(), raw.end(), match, mesa)) {
      message = match[3].str();
    } else if (std::regex_match(raw.begin(), raw.end(), match, nvidia)) {
      message = match[3].str() + ": " + match[5].str() + " (" + match[4].str() + ")";
    }
    // match[1], the source string number, is not trusted (see the top of this file).
    const std::optional<Location> at =
        message.empty() ? std::nullopt : std::optional(decode_line(std::stoi(match[2].str())));
    if (!at || at->file >= static_cast<int>(source.files.size())) {
      entries.push_back({std::string(raw), std::nullopt});
      continue;
    }
    entries.push_back({source.files[static_cast<std::size_t>(at->file)] + ":" +
                           std::to_string(at->line) + ": " + message,
                       at});
  }

  const SourceLines lines = index_source_lines(source.text);
  std::string out;
  for (std::size_t index = 0; index < entries.size(); ++index) {
    const Entry& entry = entries[index];
    out += entry.text;
    out += '\n';
    if (!entry.at) continue;
    // Messages about one line (an error and its follow-ups) share one excerpt, shown last.
    const bool same_as_next = index + 1 < entries.size() && entries[index + 1].at &&
                              entries[index + 1].at->file == entry.at->file &&
                              entries[index + 1].at->line == entry.at->line;
    if (!same_as_next) append_context(out, lines, entry.at->file, entry.at->line);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace murmur::gl
