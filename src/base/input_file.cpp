#include "murmur/base/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "murmur/base/errors.hpp"

namespace murmur {

std::string read_input_file(const std::filesystem::path& path, std::string_view what) {
  // A folder opens as a stream on Linux and then reads as nothing: name it before that.
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(path.string() + ": is a directory, not a " + std::string(what));
  }
  const auto fail = [&](int reason) {
    return InputError(path.string() + ": cannot read " + std::string(what) + " (" +
                      std::strerror(reason) + ")");
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) throw fail(errno);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw fail(errno);
  return text.str();
}

}  // namespace murmur
