#include "gl_thread.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "murmur/gl/context.hpp"

namespace murmur::python {

struct GlThread::Impl {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> queue;
  std::unique_ptr<gl::Context> context;
  std::atomic<int> contexts_made{0};
  std::thread thread;

  void serve() {
    for (;;) {
      std::function<void()> work;
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [this] { return !queue.empty(); });
        work = std::move(queue.front());
        queue.pop_front();
      }
      work();  // a packaged task: its exception goes to its caller's future
    }
  }
};

GlThread& GlThread::instance() {
  // Leaked on purpose: destroying a GL context from a static destructor, after the Python
  // interpreter and perhaps the driver have begun to unload, is what crashes at exit.
  static GlThread* const thread = new GlThread();
  return *thread;
}

GlThread::GlThread() : impl_(new Impl) {
  impl_->thread = std::thread([impl = impl_] { impl->serve(); });
  impl_->thread.detach();
}

void GlThread::post(std::function<void()> work) {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->queue.push_back(std::move(work));
  }
  impl_->wake.notify_one();
}

gl::Context& GlThread::context() {
  if (!impl_->context) {
    impl_->context = gl::create_headless_context();
    ++impl_->contexts_made;
  }
  return *impl_->context;
}

int GlThread::contexts_made() const { return impl_->contexts_made; }

}  // namespace murmur::python
