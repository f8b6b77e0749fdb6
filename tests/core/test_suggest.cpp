// "did you mean": the edit distance and the nearest accepted name (include/murmur/base/suggest.hpp).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "murmur/base/suggest.hpp"

using murmur::did_you_mean;
using murmur::edit_distance;
using murmur::nearest_name;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps", "[suggest]") {
  CHECK(edit_distance("frames", "frames") == 0);
  CHECK(edit_distance("framez", "frames") == 1);    // a substitution
  CHECK(edit_distance("colr", "colour") == 2);      // two insertions
  CHECK(edit_distance("stpe", "step") == 1);        // a swap of neighbours
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("the nearest name is suggested only when it is near", "[suggest]") {
  const std::vector<std::string> commands{"step", "stats", "record", "view", "compare", "sweep"};
  CHECK(nearest_name("stpe", commands) == "step");
  CHECK(nearest_name("sweeep", commands) == "sweep");
  CHECK(nearest_name("recrod", commands) == "record");
  CHECK_FALSE(nearest_name("frobnicate", commands).has_value());
  // A short word takes one edit at most: "sta" is two from "step" and "stats".
  CHECK_FALSE(nearest_name("sta", commands).has_value());
  // Of equally near names, the first.
  const std::vector<std::string> tied{"cat", "car"};
  CHECK(nearest_name("cap", tied) == "cat");
  CHECK(did_you_mean("colr", std::vector<std::string>{"count", "colour"}) ==
        ": did you mean \"colour\"?");
  CHECK(did_you_mean("zzzz", std::vector<std::string>{"count", "colour"}).empty());
}
