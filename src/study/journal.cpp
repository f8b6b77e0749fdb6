#include "murmur/study/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <system_error>
#include <utility>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"

namespace murmur::study {
namespace {

constexpr std::string_view kTitle =
    "# murmur sweep journal: the rows of the runs finished so far, each after its run's number, "
    "in the order they finished (docs/sweep.md, \"Resume\")";
constexpr std::string_view kDefinitionMark = "# ";
constexpr std::string_view kRunColumn = "run";
constexpr std::string_view kJournalSuffix = ".partial";

std::vector<std::string> head_lines(const JournalHead& head) {
  std::vector<std::string> lines{std::string(kTitle)};
  for (const std::string& flag : head.definition) lines.push_back(std::string(kDefinitionMark) + flag);
  lines.push_back(std::string(kRunColumn) + "," + head.header);
  return lines;
}

std::string shown(const std::vector<std::string>& lines, std::size_t i) {
  if (i >= lines.size()) return "nothing";
  std::string_view line = lines[i];
  if (line.starts_with(kDefinitionMark)) line.remove_prefix(kDefinitionMark.size());
  return "'" + std::string(line) + "'";
}

}  // namespace

std::filesystem::path journal_path(const std::filesystem::path& out) {
  return out.string() + std::string(kJournalSuffix);
}

JournalRows read_journal(std::string_view text, const std::string& name, const JournalHead& head,
                         std::size_t runs) {
  const std::string refused = "--resume: " + name;
  JournalRows journal;
  const std::vector<std::string> expected = head_lines(head);
  std::vector<std::string> found;
  std::size_t position = 0;
  std::size_t line_number = 0;
  while (true) {
    const std::size_t end = text.find('\n', position);
    if (end == std::string_view::npos) break;  // no line, or one a kill cut short
    const std::string_view line = text.substr(position, end - position);
    position = end + 1;
    ++line_number;
    if (line_number <= expected.size()) {
      found.emplace_back(line);
      if (found.back() == expected[line_number - 1]) continue;
      if (line_number == expected.size() && line.starts_with(std::string(kRunColumn) + ",")) {
        throw InputError(refused + ": its rows have other columns than this sweep's (" +
                         std::string(line.substr(kRunColumn.size() + 1)) + ")");
      }
      throw InputError(refused + " was begun by another sweep: it has " +
                       shown(found, line_number - 1) + " where this one has " +
                       shown(expected, line_number - 1));
    }
    const std::size_t comma = line.find(',');
    std::size_t run = 0;
    const auto [stop, error] = std::from_chars(line.data(), line.data() + line.size(), run);
    if (comma == std::string_view::npos || error != std::errc{} ||
        stop != line.data() + comma || run >= runs) {
      throw InputError(refused + ":" + std::to_string(line_number) +
                       ": not the row of a run below " + std::to_string(runs));
    }
    if (!journal.rows.emplace(run, std::string(line.substr(comma + 1))).second) {
      throw InputError(refused + ":" + std::to_string(line_number) + ": run " +
                       std::to_string(run) + " a second time");
    }
  }
  if (line_number < expected.size()) {
    throw InputError(refused + " was begun by another sweep: it has " +
                     shown(found, line_number) + " where this one has " +
                     shown(expected, line_number));
  }
  journal.whole_bytes = position;
  return journal;
}

JournalFile::JournalFile(std::filesystem::path path, int descriptor)
    : path_(std::move(path)), descriptor_(descriptor) {}

JournalFile::JournalFile(JournalFile&& other) noexcept
    : path_(std::move(other.path_)), descriptor_(std::exchange(other.descriptor_, -1)) {}

JournalFile::~JournalFile() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

JournalFile JournalFile::create(const std::filesystem::path& path, const JournalHead& head) {
  std::string text;
  for (const std::string& line : head_lines(head)) text += line + "\n";
  write_file_atomically(path, text);
  return reopen(path, text.size());
}

JournalFile JournalFile::reopen(const std::filesystem::path& path, std::size_t whole_bytes) {
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (descriptor < 0 || ::ftruncate(descriptor, static_cast<off_t>(whole_bytes)) != 0) {
    const int error = errno;
    if (descriptor >= 0) ::close(descriptor);
    throw OutputError(path.string() + ": cannot append to the journal (" + std::strerror(error) +
                      ")");
  }
  return JournalFile(path, descriptor);
}

void JournalFile::append(std::size_t run, std::string_view row) {
  const std::string line = std::to_string(run) + "," + std::string(row) + "\n";
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t count = ::write(descriptor_, line.data() + written, line.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      const int error = count < 0 ? errno : EIO;
      throw OutputError(path_.string() + ": cannot append to the journal (" +
                        std::strerror(error) + ")");
    }
    written += static_cast<std::size_t>(count);
  }
  if (::fdatasync(descriptor_) != 0) {
    const int error = errno;
    throw OutputError(path_.string() + ": cannot sync the journal (" + std::strerror(error) + ")");
  }
}

}  // namespace murmur::study
