// The `murmur` executable's global operator new and delete: malloc and free, as the library's,
// but a failed allocation throws HostAllocationError with its size, so that running out of
// host memory is reported as such (exit 4) with the size that did not fit. Not under
// AddressSanitizer, whose own operator new tracks every allocation.
#include <cstdlib>
#include <new>

#include "murmur/base/memory.hpp"

// GCC says __SANITIZE_ADDRESS__; clang says __has_feature(address_sanitizer).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MURMUR_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MURMUR_ADDRESS_SANITIZER 1
#endif

#if !defined(MURMUR_ADDRESS_SANITIZER)

void* operator new(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  for (;;) {
    if (void* memory = std::malloc(bytes)) return memory;
    // The standard's loop: a new_handler may free memory and ask again.
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw murmur::HostAllocationError(bytes);
    handler();
  }
}

void* operator new[](std::size_t bytes) { return ::operator new(bytes); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }

#endif
