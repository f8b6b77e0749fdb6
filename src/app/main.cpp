#include <cstdio>

#include "murmur/version.hpp"

int main() {
  std::printf("murmur %s\n", murmur::kVersion);
  return 0;
}
