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

TEST_CASE("call_in_children returns each child's result in input order, two at a time", "[core]") {
  std::vector<std::function<std::string()>> jobs;
  for (int i = 0; i < 5; ++i) jobs.push_back([i] { return std::to_string(i * i); });
  std::vector<size_t> started, finished;
  const auto out = call_in_children(
      jobs, 2, [&](size_t i) { started.push_back(i); }, [&](size_t i, const std::string&) { finished.push_back(i); });
  CHECK(out == std::vector<std::string>{"0", "1", "4", "9", "16"});
  CHECK(started.size() == 5);
  CHECK(finished.size() == 5);
}

TEST_CASE("call_in_children rethrows the first failure after collecting the running children", "[core]") {
  std::vector<std::function<std::string()>> jobs = {[] { return std::string("a"); },
                                                    []() -> std::string { throw UserError("row 2 is bad"); },
                                                    [] { return std::string("c"); }};
  CHECK_THROWS_WITH(call_in_children(jobs, 2, nullptr, nullptr), "row 2 is bad");
}
