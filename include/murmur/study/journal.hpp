#pragma once
// The journal of a sweep (docs/sweep.md, "Resume"): OUT.partial, beside the CSV OUT, holds the
// rows of the runs finished so far, one line each, appended and flushed to the disk as each
// run finishes, so that a sweep killed at any moment keeps them. It begins with the flags that
// shape the rows and the CSV's header, which a resume must match.
//
//   # murmur sweep journal: ...
//   # --scenario scenarios/x.toml (FNV-1a 64 of its bytes: 5b1f...)
//   # --vary species.a.align_weight=0:0.1:3
//   ...
//   run,species.a.align_weight,seed,polarization_mean,...
//   2,0.05,1,0.412,...
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace murmur::study {

// What a journal begins with and a resume must match.
struct JournalHead {
  std::vector<std::string> definition;  // the flags that shape the rows, one a line
  std::string header;                   // the CSV's header line, without its break
};

// The name of the journal of the CSV `out`: out + ".partial".
std::filesystem::path journal_path(const std::filesystem::path& out);

// The runs a journal holds: each run's row (without its run number), and the length of the
// text up to its last whole line.
struct JournalRows {
  std::map<std::size_t, std::string> rows;
  std::size_t whole_bytes = 0;
};

// Reads a journal's text. An InputError naming --resume and `name` when its head is not
// `head` (the first flag that differs), or when a line is not the row of a run below `runs`
// or names a run twice. A last line without its line break (a write that a kill cut short)
// is left out.
JournalRows read_journal(std::string_view text, const std::string& name, const JournalHead& head,
                         std::size_t runs);

// A journal being written: each run's line whole, and on the disk when append returns.
class JournalFile {
 public:
  // A new journal at `path` holding `head` alone (written through the atomic file writer, so
  // that no journal exists without its head).
  static JournalFile create(const std::filesystem::path& path, const JournalHead& head);
  // The journal at `path`, cut to its first `whole_bytes` bytes (read_journal's), appended to.
  static JournalFile reopen(const std::filesystem::path& path, std::size_t whole_bytes);
  ~JournalFile();
  JournalFile(JournalFile&& other) noexcept;
  JournalFile& operator=(JournalFile&&) = delete;
  JournalFile(const JournalFile&) = delete;

  // Appends run `run`'s row and syncs it; an OutputError naming the file when that fails.
  void append(std::size_t run, std::string_view row);

 private:
  JournalFile(std::filesystem::path path, int descriptor);

  std::filesystem::path path_;
  int descriptor_ = -1;
};

}  // namespace murmur::study
