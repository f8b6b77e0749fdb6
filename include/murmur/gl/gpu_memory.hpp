#pragma once
// The GPU memory free as the current context's driver reports it (the memory estimate,
// docs/reliability.md).
#include <optional>

#include "murmur/base/memory.hpp"

namespace murmur::gl {

// gpu_memory_reported's headroom from GL_NVX_gpu_memory_info or GL_ATI_meminfo, whichever the
// current context has; nothing when it has neither (llvmpipe, Intel), and the GPU's memory is
// then left to the allocation's own check (exit 4 when the driver refuses a buffer).
// Environment variable MURMUR_TEST_GPU_MEMORY_FREE_KIB=K reports K KiB free in place of the
// driver, so that the tests reach the GPU's refusal on llvmpipe (InputError when K is not a size).
std::optional<MemoryHeadroom> gpu_memory_headroom();

}  // namespace murmur::gl
