#include <catch2/catch.hpp>
#include <cstdlib>

#include "sim/core/child_process.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;

TEST_CASE("call_in_child returns what the child computed, not a copy of the parent's state", "[core]") {
  int counter = 1;
  const std::string out = call_in_child([&] {
    counter = 41;  // changes the child's copy only
    return std::to_string(counter + 1);
  });
  CHECK(out == "42");
  CHECK(counter == 1);
}

TEST_CASE("an exception in the child comes back as a UserError with the same text", "[core]") {
  CHECK_THROWS_AS(call_in_child([]() -> std::string { throw UserError("bad run: tp=3"); }), UserError);
  CHECK_THROWS_WITH(call_in_child([]() -> std::string { throw UserError("bad run: tp=3"); }), "bad run: tp=3");
}

TEST_CASE("a child that aborts is reported, not mistaken for a result", "[core]") {
  CHECK_THROWS_AS(call_in_child([]() -> std::string { std::abort(); }), std::runtime_error);
}
