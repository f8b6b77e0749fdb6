#pragma once
// The Python module's GL thread: one thread per process owns the process's one headless GL
// context and makes every GL call, whichever Python thread asks. A GL context is current on
// one thread at a time, and Python calls arrive from any thread (a Dask worker's task threads,
// a notebook's); a process that makes many flocks (a sweep's worker) makes its context once.
#include <functional>
#include <future>
#include <type_traits>
#include <utility>

namespace murmur::gl {
class Context;
}

namespace murmur::python {

class GlThread {
 public:
  // The process's GL thread, started on first use and never stopped (the process's end takes
  // it, with the driver's own threads).
  static GlThread& instance();

  // Runs `work` on the GL thread and waits for it; its exception, if any, is rethrown here.
  // Call without the GIL: the GL thread never takes it.
  template <typename Work>
  std::invoke_result_t<Work> run(Work&& work) {
    using Result = std::invoke_result_t<Work>;
    std::packaged_task<Result()> task(std::forward<Work>(work));
    std::future<Result> result = task.get_future();
    post([&task] { task(); });
    return result.get();
  }

  // The context, made on the GL thread at its first call and kept; a GpuError when none can
  // be made (asked again at the next call). Only on the GL thread.
  gl::Context& context();
  // How many contexts this process has made (tests: a sweep's worker makes one).
  int contexts_made() const;

 private:
  GlThread();
  void post(std::function<void()> work);
  struct Impl;
  Impl* impl_;  // never freed: see instance()
};

}  // namespace murmur::python
