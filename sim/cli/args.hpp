// Command-line arguments of one subcommand: declared options, strict parsing, generated help.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace trainsim {

struct OptionSpec {
  std::string name;         // "json" for --json
  std::string value_name;   // "FILE"; empty for a flag
  std::string help;
  bool repeatable = false;  // --set may be given many times
};

struct CommandSpec {
  std::string name;         // "simulate"
  std::string usage;        // "RUN.yaml [options]"
  std::string summary;      // one line
  std::string details;      // paragraphs after the options
  std::vector<OptionSpec> options;
  int min_positionals = 0, max_positionals = 0;
};

class ParsedArgs {
 public:
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  std::vector<std::string> all(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  bool help = false;

 private:
  friend ParsedArgs parse_args(const CommandSpec&, const std::vector<std::string>&);
  std::multimap<std::string, std::string> values_;
  std::vector<std::string> positionals_;
};

// Throws UserError naming the bad argument and the valid options.
[[nodiscard]] ParsedArgs parse_args(const CommandSpec& spec, const std::vector<std::string>& args);
[[nodiscard]] std::string help_text(const CommandSpec& spec);
// Parses an integer/real option value; throws UserError naming the option.
[[nodiscard]] int option_int(const ParsedArgs& a, const std::string& name, int fallback);

}  // namespace trainsim
