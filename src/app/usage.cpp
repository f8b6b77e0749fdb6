// murmur's --help layout and its one-line usage errors, both read back from the CLI11 options
// that flags.def declares (their value names, defaults, requirements and rules), so that the
// help and the errors follow the table.
#include "usage.hpp"

#include <algorithm>
#include <string_view>

#include "flags.hpp"
#include "murmur/base/suggest.hpp"

namespace murmur::cli {
namespace {

// --- reading the parsed command line back from CLI11 ---------------------------------------

// A command's option groups (CLI11's nameless subcommands), e.g. "exactly one of".
std::vector<const CLI::App*> option_groups(const CLI::App& command) {
  return command.get_subcommands([](const CLI::App* sub) { return sub->get_name().empty(); });
}

bool exactly_one(const CLI::App& group) {
  return group.get_require_option_min() == 1 && group.get_require_option_max() == 1;
}

// The flags of `options`, without the help flag that CLI11 gives every command and group.
std::vector<const CLI::Option*> flags_of(const CLI::App& command) {
  return command.get_options(
      [&command](const CLI::Option* option) { return option != command.get_help_ptr(); });
}

// Every flag of `command`, its option groups' included, in declaration order.
std::vector<const CLI::Option*> all_flags_of(const CLI::App& command) {
  std::vector<const CLI::Option*> flags = flags_of(command);
  for (const CLI::App* group : option_groups(command)) {
    const std::vector<const CLI::Option*> more = flags_of(*group);
    flags.insert(flags.end(), more.begin(), more.end());
  }
  return flags;
}

std::vector<std::string> names_of(const std::vector<const CLI::Option*>& flags) {
  std::vector<std::string> names;
  for (const CLI::Option* flag : flags) names.push_back(flag->get_name());
  return names;
}

// "--steps N", or "--quiet" for a switch.
std::string flag_synopsis(const CLI::Option& flag) {
  return flag.get_type_name().empty() ? flag.get_name()
                                      : flag.get_name() + " " + flag.get_type_name();
}

// murmur's --help layout: usage line first, each flag with its value name, and each flag's
// default, requirement and companions generated from its declaration.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    return make_usage(app, name) + "\n" + app->get_description() + "\n" +
           make_groups(app, mode) + make_subcommands(app, mode) + "\n" + make_footer(app);
  }

  // The program: its three forms. A command: its required flags, one of each exactly-one
  // group, and "[flags]" when it has optional ones.
  std::string make_usage(const CLI::App* app, std::string name) const override {
    if (!app->get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty(); })
             .empty()) {
      const std::string indent = "       ";
      return "usage: " + name + " <command> [flags]\n" + indent + name + " <command> --help\n" +
             indent + name + " --help | " + app->get_version_ptr()->get_name() + "\n";
    }
    std::string usage = "usage: " + name;
    bool has_optional_flags = false;
    for (const CLI::Option* flag : flags_of(*app)) {
      if (flag->get_required()) {
        usage += " " + flag_synopsis(*flag);
      } else {
        has_optional_flags = true;
      }
    }
    for (const CLI::App* group : option_groups(*app)) {
      if (!exactly_one(*group)) {
        has_optional_flags = true;
        continue;
      }
      std::vector<std::string> choices;
      for (const CLI::Option* flag : flags_of(*group)) choices.push_back(flag_synopsis(*flag));
      usage += " (" + join(choices, " | ") + ")";
    }
    return usage + (has_optional_flags ? " [flags]\n" : "\n");
  }

  std::string make_option_opts(const CLI::Option* flag) const override {
    return flag->get_type_name().empty() ? "" : " " + flag->get_type_name();
  }

  std::string make_option_desc(const CLI::Option* flag) const override {
    std::vector<std::string> notes;
    if (flag->get_required()) {
      notes.push_back("required");
    } else if (!flag->get_default_str().empty()) {
      notes.push_back("default " + flag->get_default_str());
    }
    for (const CLI::Option* needed : flag->get_needs()) {
      notes.push_back("only with " + needed->get_name());
    }
    for (const CLI::Option* excluded : flag->get_excludes()) {
      notes.push_back("not with " + excluded->get_name());
    }
    const std::string description = flag->get_description();
    return notes.empty() ? description : description + " (" + join(notes, "; ") + ")";
  }

  // Only option groups are expanded (murmur has no --help-all): their flags under a heading.
  std::string make_expanded(const CLI::App* group) const override {
    std::string out =
        "\n" + group->get_group() + (exactly_one(*group) ? " (give exactly one)" : "") + ":\n";
    for (const CLI::Option* flag : flags_of(*group)) out += make_option(flag, false);
    return out;
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() { return std::make_shared<HelpFormatter>(); }

std::string stray_word_problem(const std::string& word, const CLI::App& command, bool at_top) {
  if (word.starts_with("-") && word != "-") {
    const std::string flag = word.substr(0, word.find('='));
    std::vector<std::string> names;
    for (const CLI::Option* option : all_flags_of(command)) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
    return "unknown flag " + flag + did_you_mean(flag, names, "");
  }
  if (!at_top) return "unexpected argument " + in_quotes(word);
  std::vector<std::string> names;
  // The listed commands: a hidden one (a sweep's job) is never what a user meant.
  for (const CLI::App* listed :
       command.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); })) {
    names.push_back(listed->get_name());
  }
  return "unknown command " + word + did_you_mean(word, names, "");
}

std::string missing_value_problem(const CLI::App& command, const std::vector<std::string>& words) {
  const auto is_flag_of_command = [&](const std::string& word) {
    return word.starts_with("--") && command.get_option_no_throw(word.substr(0, word.find('='))) != nullptr;
  };
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!word.starts_with("--") || word.find('=') != std::string::npos) continue;
    const CLI::Option* flag = command.get_option_no_throw(word);
    if (flag == nullptr || flag->get_items_expected_min() == 0) continue;
    if (i + 1 == words.size() || is_flag_of_command(words[i + 1])) {
      return word + " has no value: it needs " + flag->get_type_name();
    }
  }
  return {};
}

std::string usage_problem(const CLI::ParseError& error, const CLI::App& command) {
  const std::vector<const CLI::Option*> flags = all_flags_of(command);
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    for (const CLI::Option* flag : flags) {
      if (flag->get_required() && flag->count() == 0) {
        return "missing " + flag_synopsis(*flag) + ": " + flag->get_description();
      }
    }
    for (const CLI::App* group : option_groups(command)) {
      const std::vector<const CLI::Option*> members = flags_of(*group);
      const auto given = std::count_if(members.begin(), members.end(),
                                       [](const CLI::Option* flag) { return flag->count() > 0; });
      if (exactly_one(*group) && given != 1) {
        return "give exactly one of " + join(names_of(members), " and ");
      }
    }
  }
  for (const CLI::Option* flag : flags) {
    if (flag->count() == 0) continue;
    if (dynamic_cast<const CLI::ExcludesError*>(&error) != nullptr) {
      for (const CLI::Option* excluded : flag->get_excludes()) {
        if (excluded->count() > 0) {
          return flag->get_name() + " and " + excluded->get_name() +
                 " exclude each other: give one";
        }
      }
    }
    if (dynamic_cast<const CLI::RequiresError*>(&error) != nullptr) {
      for (const CLI::Option* needed : flag->get_needs()) {
        if (needed->count() == 0) {
          return flag->get_name() + " applies only with " + needed->get_name();
        }
      }
    }
  }
  return error.what();
}

}  // namespace murmur::cli
