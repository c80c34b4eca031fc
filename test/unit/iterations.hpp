// The loop count of a randomized round-trip or many-thread test: n, or n divided by
// ULID_TSID_UNIT_DIVISOR. The sanitizer run (make unit-sanitize) sets 10: the same
// code paths under AddressSanitizer and UndefinedBehaviorSanitizer, a tenth of the
// iterations (at full count these loops took about 45 of its 68 seconds on shared
// cores). Statistical tests keep their samples whatever the divisor.
#pragma once
#include <cstdlib>

inline int Iterations(int n) {
  static const int divisor = [] {
    const char* d = std::getenv("ULID_TSID_UNIT_DIVISOR");
    const int v = d ? std::atoi(d) : 1;
    return v > 0 ? v : 1;
  }();
  return n / divisor > 0 ? n / divisor : 1;
}
