// A minimal streaming JSON writer with deterministic number formatting (%.10g), so the same
// inputs give byte-identical files.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace trainsim {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out, bool pretty = true) : out_(out), pretty_(pretty) {}
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(const std::string& k);
  JsonWriter& value(double v);
  JsonWriter& value(long long v);
  JsonWriter& value(int v) { return value(static_cast<long long>(v)); }
  JsonWriter& value(bool v);
  JsonWriter& value(const std::string& v);
  JsonWriter& value(const char* v) { return value(std::string(v)); }
  // A number already formatted by the caller (e.g. fixed-point microseconds), written as is.
  JsonWriter& raw(const std::string& number_text);
  template <typename T>
  JsonWriter& field(const std::string& k, const T& v) {
    key(k);
    return value(v);
  }

  static std::string escape(const std::string& s);
  static std::string number(double v);

 private:
  void separate();
  void newline();
  std::ostream& out_;
  bool pretty_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace trainsim
