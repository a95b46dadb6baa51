// User-facing errors. Anything the user can fix (bad YAML, impossible strategy, strategy
// that does not fit in memory) is a UserError: the CLI prints what() and exits with code 2.
// Internal invariants are asserts, never UserErrors.
#pragma once
#include <stdexcept>
#include <string>

namespace trainsim {

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad value in an input file. what() has the one shape every config error uses:
//   <file>:<line>: <key.path>: <problem> (got '<value>'); valid: <expected>
// line is 1-based; 0 means unknown and is omitted. value/expected may be empty.
class ConfigError : public UserError {
 public:
  ConfigError(std::string file, int line, std::string key_path, std::string problem,
              std::string value = "", std::string expected = "");
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key_path() const { return key_path_; }

 private:
  std::string file_;
  int line_;
  std::string key_path_;
};

// An output file that could not be written completely (full disk, no permission): not the
// user's input at fault, so the CLI exits with code 1, naming the path and the system's reason.
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A strategy that cannot run: degrees that do not multiply, tp not dividing heads, out of memory.
class StrategyError : public UserError {
 public:
  using UserError::UserError;
};

}  // namespace trainsim
