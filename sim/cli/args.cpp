#include "sim/cli/args.hpp"

#include <limits>
#include <sstream>
#include <stdexcept>

#include "sim/core/error.hpp"

namespace trainsim {

std::string ParsedArgs::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::vector<std::string> ParsedArgs::all(const std::string& name) const {
  std::vector<std::string> out;
  for (auto [it, end] = values_.equal_range(name); it != end; ++it) out.push_back(it->second);
  return out;
}

namespace {

const OptionSpec* find_option(const CommandSpec& spec, const std::string& name) {
  for (const auto& o : spec.options)
    if (o.name == name) return &o;
  return nullptr;
}

std::string option_list(const CommandSpec& spec) {
  std::string out;
  for (const auto& o : spec.options) out += (out.empty() ? "--" : ", --") + o.name;
  return out.empty() ? "(none)" : out;
}

}  // namespace

ParsedArgs parse_args(const CommandSpec& spec, const std::vector<std::string>& args) {
  ParsedArgs out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      out.help = true;
      return out;
    }
    if (a.rfind("--", 0) != 0 || a.size() == 2) {
      out.positionals_.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    const size_t eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const OptionSpec* opt = find_option(spec, name);
    if (!opt)
      throw UserError("trainsim " + spec.name + ": unknown option '--" + name + "'; valid: " + option_list(spec) +
                      " (see trainsim " + spec.name + " --help)");
    if (opt->value_name.empty()) {
      if (inline_value) throw UserError("trainsim " + spec.name + ": --" + name + " takes no value");
      value = "1";
    } else if (!inline_value) {
      if (i + 1 >= args.size())
        throw UserError("trainsim " + spec.name + ": --" + name + " needs a value (" + opt->value_name + ")");
      // An option where its value should be: the value was forgotten (a value that really begins
      // with "--" is written --name=VALUE).
      if (args[i + 1] == "--help" || args[i + 1] == "-h") {  // help wins wherever it stands
        out.help = true;
        return out;
      }
      if (args[i + 1].rfind("--", 0) == 0 && args[i + 1].size() > 2)
        throw UserError("trainsim " + spec.name + ": --" + name + " needs a value (" + opt->value_name + "), got the option '" +
                        args[i + 1] + "'; write --" + name + "=VALUE for a value that begins with --");
      value = args[++i];
    }
    if (!opt->repeatable && out.has(name))
      throw UserError("trainsim " + spec.name + ": --" + name + " given twice");
    out.values_.emplace(name, value);
  }
  const int n = static_cast<int>(out.positionals_.size());
  if (n < spec.min_positionals || n > spec.max_positionals)
    throw UserError("trainsim " + spec.name + ": expected " + spec.usage + " (got " + std::to_string(n) +
                    " positional argument" + (n == 1 ? "" : "s") + "); see trainsim " + spec.name + " --help");
  return out;
}

std::string help_text(const CommandSpec& spec) {
  std::ostringstream out;
  out << "usage: trainsim " << spec.name << " " << spec.usage << "\n\n" << spec.summary << "\n";
  if (!spec.options.empty()) {
    out << "\noptions:\n";
    for (const auto& o : spec.options) {
      std::string left = "  --" + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
      if (left.size() < 28) left += std::string(28 - left.size(), ' ');
      else left += "\n" + std::string(28, ' ');
      out << left << o.help << (o.repeatable ? " (repeatable)" : "") << "\n";
    }
    out << "  -h, --help                show this help\n";
  }
  if (!spec.details.empty()) out << "\n" << spec.details << "\n";
  return out.str();
}

int option_int(const ParsedArgs& a, const std::string& name, int fallback) {
  if (!a.has(name)) return fallback;
  const std::string v = a.get(name);
  size_t used = 0;
  int out = 0;
  try {
    out = std::stoi(v, &used);
  } catch (const std::out_of_range&) {
    throw UserError("--" + name + ": " + v + " is out of range (an integer from " +
                    std::to_string(std::numeric_limits<int>::min()) + " to " +
                    std::to_string(std::numeric_limits<int>::max()) + ")");
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty()) throw UserError("--" + name + ": expected an integer, got '" + v + "'");
  return out;
}

}  // namespace trainsim
