#pragma once
// The one way murmur writes a file (state files, PNG frames, manifests, statistics, the
// viewer's Save): into a temporary file beside the final one, flushed, synced and closed with
// every error checked, then renamed over the final name. Readers never see half a file under
// the final name, and a late error (a full disk reported only at close) is never lost.
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace murmur {

class AtomicFile {
 public:
  // Creates a temporary with a name no other writer uses (atomic_temporary_name) in the
  // directory of `path`. Throws OutputError "<path>: cannot create output file (<cause>)".
  explicit AtomicFile(std::filesystem::path path);
  // Unless commit() succeeded: closes and removes the temporary; `path` is left as it was.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Appends bytes. Never throws, so C callbacks (stb's PNG encoder) can call it: the first
  // error is kept, later writes are skipped, and commit() reports it.
  void write(const void* data, std::size_t bytes) noexcept;
  void write(std::string_view text) noexcept { write(text.data(), text.size()); }
  // Whether every write so far succeeded (a long writer may stop early when not).
  bool ok() const { return error_ == 0; }
  // Marks the contents as failed with errno value `error` (e.g. an encoder out of memory), so
  // commit() reports it instead of publishing a wrong file.
  void fail(int error) noexcept;

  // Flushes, fsyncs, closes and renames the temporary over `path`. Throws OutputError
  // "<path>: <step> failed (<cause>)" for a failed write, sync or close, or
  // "<path>: cannot rename into place (<cause>)"; the temporary is then already removed.
  void commit();

  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& temporary_path() const { return temporary_; }

 private:
  [[noreturn]] void abandon(std::string_view what, int error);

  std::filesystem::path path_;
  std::filesystem::path temporary_;
  std::FILE* stream_ = nullptr;
  int error_ = 0;  // errno of the first failed write, or of fail()
  bool committed_ = false;
};

// Writes `contents` to `path` through an AtomicFile; throws OutputError naming `path`.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// The temporaries' names: ".<file name>.tmp-<unique suffix>", hidden, so globs such as
// frame_*.png never match a file that is being written.
std::string atomic_temporary_name(std::string_view file_name, std::string_view unique_suffix);
// The final file name that `file_name` is a temporary of (a leftover of a crashed writer, for
// clean-ups), or nothing when it is not one.
std::optional<std::string> atomic_temporary_target(std::string_view file_name);

}  // namespace murmur
