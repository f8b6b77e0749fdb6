#pragma once
// Work that may touch GL, run where it must: on the GL thread for a GPU backend, in the
// calling thread otherwise, and without the GIL either way.
#include <pybind11/pybind11.h>

#include <utility>

#include "gl_thread.hpp"

namespace murmur::python {

template <typename Work>
auto without_gil(bool on_gpu, Work&& work) {
  pybind11::gil_scoped_release release;
  if (on_gpu) return GlThread::instance().run(std::forward<Work>(work));
  return work();
}

}  // namespace murmur::python
