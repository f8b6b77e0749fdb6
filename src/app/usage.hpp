#pragma once
// murmur's --help layout and its one-line usage errors (usage.cpp).
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace murmur::cli {

// The --help of the program and of each command: the usage line, then each flag with its value
// name, accepted range, default, requirement and rules, then the footer.
std::shared_ptr<CLI::Formatter> help_formatter();

// A word CLI11 could not place: an unknown flag, or a stray argument (a command, at the top).
std::string stray_word_problem(const std::string& word, const CLI::App& command, bool at_top);

// "--steps has no value: it needs N" when a flag that takes a value is the last word or is
// followed by another of the command's flags (`--steps --out x.csv`), else empty: what CLI11's
// own complaint (a stray word, a wrong type) would hide.
std::string missing_value_problem(const CLI::App& command, const std::vector<std::string>& words);

// The one line for a command line CLI11 refused, read from the flags' counts and rules after
// the parse rather than from CLI11's message texts, so that it names the flag in murmur's words.
std::string usage_problem(const CLI::ParseError& error, const CLI::App& command);

}  // namespace murmur::cli
