#pragma once
// The one reader of the files a user names (scenarios, state files, a sweep's journal): the
// whole file as text, or an InputError that says what went wrong in the user's terms.
#include <filesystem>
#include <string>
#include <string_view>

namespace murmur {

// The bytes of `path`. InputError "PATH: is a directory, not a WHAT" for a folder, and
// "PATH: cannot read WHAT (REASON)" when it cannot be opened or read; `what` names the file's
// kind ("scenario file", "state file").
std::string read_input_file(const std::filesystem::path& path, std::string_view what);

}  // namespace murmur
