// Command-line parsing for the argx subcommands: named options with or without a value
// ("--dim 1", "--dim=1", "-o out.npy"), positional arguments, and the value parsers.
// Every mistake is a usage_error (exit status 2).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace argx::cli {

/// A mistake in the command line.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The options one subcommand accepts.
class option_set {
 public:
  /// An option without a value.
  void flag(std::string name, std::string help, std::function<void()> apply);
  /// An option with a value; `metavar` names the value in the help text.
  void value(std::string name, std::string metavar, std::string help, std::function<void(const std::string&)> apply);
  /// A second name for an existing option ("-o" for "--output").
  void alias(std::string alias, const std::string& name);

  /// Applies the options in `args` and returns the positional arguments. Returns false in
  /// `help_requested` for --help / -h (nothing else is applied then).
  std::vector<std::string> parse(const std::vector<std::string>& args, bool& help_requested) const;
  /// parse() for a subcommand: for --help, prints "usage: argx USAGE", a blank line, `about`
  /// and the options, and returns nothing (the command is done); else the positional arguments.
  std::optional<std::vector<std::string>> parse_or_help(const std::vector<std::string>& args, const std::string& usage,
                                                        const std::string& about = "") const;
  /// One line per option, for --help.
  std::string help() const;

 private:
  struct option {
    std::string name, metavar, help;
    std::function<void(const std::string&)> apply;
    std::vector<std::string> aliases;
  };
  const option* find(const std::string& name) const;
  std::vector<option> options_;
};

/// The one positional argument, INPUT.npy, of a command that reads one file.
const std::string& only_input(const std::vector<std::string>& positional);
/// A usage_error saying `message` unless there are no positional arguments.
void no_positional(const std::vector<std::string>& positional, const std::string& message);

/// An integer in [lo, hi], for option `opt`.
std::int64_t parse_int(const std::string& opt, const std::string& text, std::int64_t lo, std::int64_t hi);
/// A finite number in [lo, hi], for option `opt`.
double parse_real(const std::string& opt, const std::string& text, double lo, double hi);
/// `text` split at `sep` ("a,b,c" -> {"a","b","c"}); empty pieces are a usage_error
/// unless `allow_empty`.
std::vector<std::string> split(const std::string& opt, const std::string& text, char sep, bool allow_empty = false);

/// One of a fixed set of words.
template <class T>
T parse_choice(const std::string& opt, const std::string& text, std::initializer_list<std::pair<const char*, T>> choices) {
  std::string names;
  for (const auto& c : choices) {
    if (text == c.first) return c.second;
    names += (names.empty() ? "" : ", ") + std::string(c.first);
  }
  throw usage_error(opt + ": '" + text + "' is not one of " + names);
}

}  // namespace argx::cli
