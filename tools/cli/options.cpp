#include "options.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace argx::cli {

void option_set::flag(std::string name, std::string help, std::function<void()> apply) {
  options_.push_back({std::move(name), "", std::move(help), [apply](const std::string&) { apply(); }, {}});
}

void option_set::value(std::string name, std::string metavar, std::string help,
                       std::function<void(const std::string&)> apply) {
  options_.push_back({std::move(name), std::move(metavar), std::move(help), std::move(apply), {}});
}

void option_set::alias(std::string alias, const std::string& name) {
  for (auto& o : options_)
    if (o.name == name) o.aliases.push_back(std::move(alias));
}

const option_set::option* option_set::find(const std::string& name) const {
  for (const auto& o : options_) {
    if (o.name == name) return &o;
    for (const auto& a : o.aliases)
      if (a == name) return &o;
  }
  return nullptr;
}

std::vector<std::string> option_set::parse(const std::vector<std::string>& args, bool& help_requested) const {
  help_requested = false;
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      help_requested = true;
      return {};
    }
  std::vector<std::string> positional;
  bool only_positional = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (only_positional || a.size() < 2 || a[0] != '-') {
      positional.push_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    const auto eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const option* o = find(name);
    if (!o) throw usage_error("unknown option '" + name + "'");
    if (o->metavar.empty()) {
      if (eq != std::string::npos) throw usage_error("option " + name + " takes no value");
      o->apply("");
    } else if (eq != std::string::npos) {
      o->apply(a.substr(eq + 1));
    } else {
      if (i + 1 >= args.size()) throw usage_error("option " + name + " needs a value (" + o->metavar + ")");
      o->apply(args[++i]);
    }
  }
  return positional;
}

std::optional<std::vector<std::string>> option_set::parse_or_help(const std::vector<std::string>& args,
                                                                  const std::string& usage,
                                                                  const std::string& about) const {
  bool help_requested = false;
  std::vector<std::string> positional = parse(args, help_requested);
  if (!help_requested) return positional;
  std::printf("usage: argx %s\n\n%s%s", usage.c_str(), about.c_str(), help().c_str());
  return std::nullopt;
}

const std::string& only_input(const std::vector<std::string>& positional) {
  if (positional.size() != 1)
    throw usage_error(positional.empty() ? "missing INPUT.npy" : "more than one input: '" + positional[1] + "'");
  return positional[0];
}

void no_positional(const std::vector<std::string>& positional, const std::string& message) {
  if (!positional.empty()) throw usage_error(message);
}

std::string option_set::help() const {
  std::string out;
  for (const auto& o : options_) {
    std::string left = "  " + o.name;
    for (const auto& a : o.aliases) left += ", " + a;
    if (!o.metavar.empty()) left += " " + o.metavar;
    if (left.size() < 30) left.resize(30, ' ');
    else left += "\n" + std::string(30, ' ');
    out += left + o.help + "\n";
  }
  return out;
}

std::int64_t parse_int(const std::string& opt, const std::string& text, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  auto r = std::from_chars(text.data(), end, v);
  if (text.empty() || r.ec != std::errc() || r.ptr != end) throw usage_error(opt + ": '" + text + "' is not an integer");
  if (v < lo || v > hi)
    throw usage_error(opt + ": " + text + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

double parse_real(const std::string& opt, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw usage_error(opt + ": '" + text + "' is not a number");
  if (v < lo || v > hi) throw usage_error(opt + ": " + text + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

std::vector<std::string> split(const std::string& opt, const std::string& text, char sep, bool allow_empty) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(sep, start);
    parts.push_back(text.substr(start, at - start));
    if (parts.back().empty() && !allow_empty) throw usage_error(opt + ": empty item in '" + text + "'");
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return parts;
}

}  // namespace argx::cli
