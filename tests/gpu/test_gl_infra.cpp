// The GL infrastructure: headless EGL context, KHR_debug messenger, DSA object wrappers,
// shader preprocessing (#include/#line) and program builds with file:line errors.
//
// Sections: context; debug output; objects; preprocess_shader; programs.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/gl/debug.hpp"
#include "murmur/gl/gl.hpp"
#include "murmur/gl/objects.hpp"
#include "murmur/gl/program.hpp"
#include "murmur/gl/shader_source.hpp"

using namespace murmur;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using FileMap = std::map<std::string, std::string_view>;

// Every test that touches GL gets its own debug context; a machine without one is a failure,
// not a skip (CI always has Mesa's llvmpipe).
std::unique_ptr<gl::Context> make_context() {
  try {
    return gl::create_headless_context({.debug = true});
  } catch (const GpuError& error) {
    FAIL("no headless OpenGL 4.5 context (expected at least Mesa llvmpipe): " << error.what());
  }
  return nullptr;
}

// Sets an environment variable for one scope and restores what was there before.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (previous_) {
      ::setenv(name_, previous_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> previous_;
};

// The files under tests/data/shaders, keyed by file name like the embedded set.
struct TestShaderFiles {
  TestShaderFiles() {
    const auto folder = std::filesystem::path(MURMUR_SOURCE_DIR) / "tests/data/shaders";
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      storage[entry.path().filename().string()] = text.str();
    }
    for (const auto& [name, text] : storage) files[name] = text;
  }
  std::map<std::string, std::string> storage;
  FileMap files;
};

// The message of the GpuError `build` throws, or "" if it throws none.
template <typename Build>
std::string gpu_error_of(Build&& build) {
  try {
    build();
  } catch (const GpuError& error) {
    return error.what();
  }
  return "";
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

// --- context -------------------------------------------------------------------------------

TEST_CASE("a headless context is OpenGL 4.5 core with a debug flag and a renderer", "[context]") {
  auto context = make_context();
  GLint major = 0, minor = 0, profile = 0, flags = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
  INFO("renderer: " << context->info().renderer << ", version: " << context->info().version);
  CHECK((major > 4 || (major == 4 && minor >= 5)));
  CHECK((profile & GL_CONTEXT_CORE_PROFILE_BIT) != 0);
  CHECK((flags & GL_CONTEXT_FLAG_DEBUG_BIT) != 0);
  CHECK_FALSE(context->info().renderer.empty());
  CHECK_FALSE(context->info().vendor.empty());
  CHECK_THAT(context->info().version, StartsWith(std::to_string(major) + "."));
  CHECK_THAT(context->info().platform, StartsWith("EGL "));
}

TEST_CASE("MURMUR_EGL_PLATFORM forces the EGL platform", "[context]") {
  SECTION("device") {
    ScopedEnv env("MURMUR_EGL_PLATFORM", "device");
    auto context = make_context();
    CHECK(context->info().platform == "EGL device");
  }
  SECTION("surfaceless") {
    ScopedEnv env("MURMUR_EGL_PLATFORM", "surfaceless");
    // Mesa always has this platform; a driver without it must fail without trying devices.
    std::unique_ptr<gl::Context> context;
    const std::string error =
        gpu_error_of([&] { context = gl::create_headless_context({.debug = true}); });
    if (context) {
      CHECK(context->info().platform == "EGL surfaceless");
    } else {
      CHECK_THAT(error, Contains("MURMUR_EGL_PLATFORM=surfaceless"));
      CHECK_THAT(error, !Contains("EGL device"));
    }
  }
  SECTION("an unknown value is an input error naming the variable and the choices") {
    ScopedEnv env("MURMUR_EGL_PLATFORM", "wayland");
    try {
      gl::create_headless_context();
      FAIL("expected InputError");
    } catch (const InputError& error) {
      CHECK_THAT(error.what(), Contains("MURMUR_EGL_PLATFORM='wayland'"));
      CHECK_THAT(error.what(), Contains("device or surfaceless"));
    }
  }
}

TEST_CASE("MURMUR_EGL_DEVICE chooses one EGL device, or fails", "[context]") {
  SECTION("the device at index 0, alone, with no fallback to another platform") {
    ScopedEnv env("MURMUR_EGL_DEVICE", "0");
    auto context = make_context();
    CHECK(context->info().platform == "EGL device");
  }
  SECTION("an index past the last device is a GpuError naming the variable and the devices") {
    ScopedEnv env("MURMUR_EGL_DEVICE", "31");
    const std::string error = gpu_error_of([] { gl::create_headless_context(); });
    CHECK_THAT(error, Contains("MURMUR_EGL_DEVICE=31: there are"));
    CHECK_THAT(error, !Contains("surfaceless"));
  }
  SECTION("a value that is no index is an input error") {
    ScopedEnv env("MURMUR_EGL_DEVICE", "-1");
    try {
      gl::create_headless_context();
      FAIL("expected InputError");
    } catch (const InputError& error) {
      CHECK_THAT(error.what(), Contains("MURMUR_EGL_DEVICE='-1' is not a device index"));
    }
  }
}

TEST_CASE("contexts can be created again after one is destroyed", "[context]") {
  { auto first = make_context(); }
  auto second = make_context();
  second->make_current();
  GLint major = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  CHECK(major >= 4);
}

// --- debug output --------------------------------------------------------------------------

TEST_CASE("the debug messenger counts GL errors and only errors", "[debug]") {
  auto context = make_context();
  gl::DebugMessenger messenger;

  SECTION("clean work reports nothing") {
    gl::Buffer buffer("clean work", 64);
    const std::vector<unsigned> values(16, 5u);
    buffer.upload(0, 64, values.data());
    buffer.bind_storage(0);
    { gl::DebugGroup group("clean group"); }
    glFinish();
    CHECK(messenger.error_count() == 0);
  }
  SECTION("a provoked error is counted and kept, and clear() forgets it") {
    constexpr GLenum kNotABufferTarget = 0xDEAD;
    glBindBuffer(kNotABufferTarget, 0);
    REQUIRE(messenger.error_count() == 1);
    CHECK_FALSE(messenger.errors().front().empty());
    messenger.clear();
    CHECK(messenger.error_count() == 0);
  }
}

TEST_CASE("a context's check turns a GL error into a GpuError with the driver's message",
          "[debug]") {
  auto context = make_context();
  SECTION("clean work passes the check") {
    gl::Buffer buffer("checked work", 64);
    buffer.bind_storage(0);
    CHECK_NOTHROW(context->check_gl_errors("clean work"));
  }
  SECTION("an error fails the next check, which names the stage, and only that check") {
    gl::make_planted_gl_error();
    const std::string error = gpu_error_of([&] { context->check_gl_errors("the planted call"); });
    CHECK_THAT(error, StartsWith("during the planted call: GL error"));
    CHECK_THAT(error, Contains("GL_INVALID_VALUE"));
    CHECK_NOTHROW(context->check_gl_errors("the next stage"));
  }
  SECTION("every error counts, not only the first") {
    gl::make_planted_gl_error();
    gl::make_planted_gl_error();
    CHECK_THAT(gpu_error_of([&] { context->check_gl_errors("two calls"); }),
               Contains("(and 1 more)"));
  }
}

TEST_CASE("without a debug context or debug output, the check still sees errors", "[debug]") {
  // A plain context, as the commands get; debug output switched off underneath the context's
  // messenger leaves only the error flag, which the check reads with glGetError.
  const auto context = gl::create_headless_context();
  glDisable(GL_DEBUG_OUTPUT);
  gl::make_planted_gl_error();
  const std::string error = gpu_error_of([&] { context->check_gl_errors("a silent driver"); });
  CHECK_THAT(error, StartsWith("during a silent driver: GL error GL_INVALID_VALUE"));
  CHECK_NOTHROW(context->check_gl_errors("the next stage"));
}

TEST_CASE("a messenger over the context's own puts the context's back", "[debug]") {
  auto context = make_context();
  {
    gl::DebugMessenger messenger;
    gl::make_planted_gl_error();
    CHECK(messenger.error_count() == 1);
    glGetError();  // the flag belongs to this scope's error
  }
  gl::make_planted_gl_error();
  glGetError();  // only the context's messenger can report it now
  CHECK_THAT(gpu_error_of([&] { context->check_gl_errors("after the scope"); }),
             Contains("GL_INVALID_VALUE"));
}

TEST_CASE("MURMUR_TEST_GL_ERROR_AT_STEP is read as a step index", "[debug]") {
  {
    ScopedEnv unset("MURMUR_TEST_GL_ERROR_AT_STEP", "");
    CHECK_FALSE(gl::planted_gl_error_step().has_value());
  }
  {
    ScopedEnv set("MURMUR_TEST_GL_ERROR_AT_STEP", "17");
    CHECK(gl::planted_gl_error_step() == 17u);
  }
  ScopedEnv bad("MURMUR_TEST_GL_ERROR_AT_STEP", "17 steps");
  CHECK_THROWS_WITH(gl::planted_gl_error_step(),
                    Contains("MURMUR_TEST_GL_ERROR_AT_STEP='17 steps' is not a step index"));
}

TEST_CASE("debug groups nest and unwind with their scope", "[debug]") {
  auto context = make_context();
  gl::DebugMessenger messenger;
  auto depth = [] {
    GLint value = 0;
    glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &value);
    return value;
  };
  const GLint outside = depth();
  {
    gl::DebugGroup outer("outer");
    gl::DebugGroup inner("inner");
    CHECK(depth() == outside + 2);
  }
  CHECK(depth() == outside);
  CHECK(messenger.error_count() == 0);
}

// --- objects -------------------------------------------------------------------------------

TEST_CASE("a compute shader writes its invocation ids into a storage buffer", "[objects][program]") {
  auto context = make_context();
  gl::DebugMessenger messenger;
  // interface.h comes from the embedded set: this also proves it is includable from GLSL.
  FileMap files = gl::embedded_shader_files();
  files["write_ids.comp"] = R"(#version 450
#include "common/interface.h"
layout(local_size_x = MURMUR_STEP_GROUP_SIZE) in;
layout(std430, binding = 0) buffer Ids { uint ids[]; };
void main() { ids[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x + ID_OFFSET; }
)";
  constexpr unsigned kOffset = 7;
  constexpr unsigned kGroups = 3;
  constexpr unsigned kGroupSize = 128;  // MURMUR_STEP_GROUP_SIZE in shaders/common/interface.h
  constexpr unsigned kInvocations = kGroups * kGroupSize;
  // One slot past the dispatch: it must keep the value clear_to_zero gave it.
  constexpr unsigned kSlots = kInvocations + 1;
  const std::vector<unsigned> garbage(kSlots, 0xFFFFFFFFu);
  gl::Buffer ids("ids", kSlots * sizeof(unsigned), garbage.data());

  std::vector<unsigned> read(kSlots, 1u);
  ids.download(0, ids.size(), read.data());
  CHECK(read == garbage);
  ids.clear_to_zero();
  ids.download(0, ids.size(), read.data());
  CHECK(read == std::vector<unsigned>(kSlots, 0u));

  const auto program =
      gl::Program::compute("write_ids.comp", "#define ID_OFFSET " + std::to_string(kOffset) + "u", files);
  program.use();
  ids.bind_storage(0);
  glDispatchCompute(kGroups, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  ids.download(0, ids.size(), read.data());
  for (unsigned slot = 0; slot < kInvocations; ++slot) {
    INFO("slot " << slot);
    REQUIRE(read[slot] == slot + kOffset);
  }
  CHECK(read[kInvocations] == 0u);

  // A partial upload and download touch only their range.
  const unsigned patch[2] = {41u, 42u};
  ids.upload(sizeof(unsigned), sizeof patch, patch);
  unsigned window[3] = {};
  ids.download(0, sizeof window, window);
  CHECK(window[0] == kOffset);
  CHECK(window[1] == 41u);
  CHECK(window[2] == 42u);
  CHECK(messenger.error_count() == 0);
}

TEST_CASE("buffers of any byte size can be created and cleared and read", "[objects]") {
  auto context = make_context();
  gl::DebugMessenger messenger;
  SECTION("an empty buffer is a real object of size 0") {
    gl::Buffer empty("empty", 0);
    CHECK(empty.id() != 0);
    CHECK(empty.size() == 0);
    empty.clear_to_zero();
    empty.bind_storage(0);
  }
  SECTION("a size that is not a whole number of words keeps its bytes and clears") {
    const unsigned char bytes[6] = {1, 2, 3, 4, 5, 6};
    gl::Buffer odd("odd", sizeof bytes, bytes);
    CHECK(odd.size() == sizeof bytes);
    unsigned char read[6] = {};
    odd.download(0, sizeof read, read);
    CHECK(std::equal(std::begin(read), std::end(read), std::begin(bytes)));
    odd.clear_to_zero();
    odd.download(0, sizeof read, read);
    CHECK(std::all_of(std::begin(read), std::end(read), [](unsigned char b) { return b == 0; }));
  }
  SECTION("ranges past the end are refused before reaching GL") {
    gl::Buffer small("small", 8);
    unsigned char data[8] = {};
    CHECK_THROWS_AS(small.upload(4, 8, data), std::out_of_range);
    CHECK_THROWS_AS(small.download(9, 0, data), std::out_of_range);
  }
  SECTION("moving a buffer moves ownership") {
    gl::Buffer first("first", 16);
    const GLuint id = first.id();
    gl::Buffer second = std::move(first);
    CHECK(second.id() == id);
    CHECK(first.id() == 0);
    CHECK(glIsBuffer(id) == GL_TRUE);
    second = gl::Buffer();
    CHECK(glIsBuffer(id) == GL_FALSE);
  }
  CHECK(messenger.error_count() == 0);
}

TEST_CASE("an RGBA16F framebuffer is complete and round-trips a clear colour", "[objects]") {
  auto context = make_context();
  gl::DebugMessenger messenger;
  constexpr int kSize = 4;
  // Exactly representable in half precision, so the read-back is exact.
  constexpr float kColour[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  gl::Texture colour("hdr colour", GL_RGBA16F, kSize, kSize);
  CHECK(colour.width() == kSize);
  CHECK(colour.height() == kSize);
  gl::Framebuffer target("hdr target");
  target.attach_colour(colour);
  REQUIRE_NOTHROW(target.check_complete());

  glBindFramebuffer(GL_FRAMEBUFFER, target.id());
  glViewport(0, 0, kSize, kSize);
  glClearColor(kColour[0], kColour[1], kColour[2], kColour[3]);
  glClear(GL_COLOR_BUFFER_BIT);
  std::vector<float> pixels(kSize * kSize * 4, -1.0f);
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_FLOAT, pixels.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  for (std::size_t index = 0; index < pixels.size(); ++index) {
    INFO("component " << index);
    REQUIRE(pixels[index] == kColour[index % 4]);
  }
  CHECK(messenger.error_count() == 0);
}

TEST_CASE("an incomplete framebuffer names its label", "[objects]") {
  auto context = make_context();
  std::string label = "no attachments";  // a temporary: the framebuffer must keep a copy
  gl::Framebuffer target(label);
  label.assign("overwritten");
  const std::string error = gpu_error_of([&] { target.check_complete(); });
  CHECK_THAT(error, Contains("framebuffer 'no attachments' is incomplete"));
  CHECK_THAT(error, Contains("GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT"));
}

// --- preprocess_shader -----------------------------------------------------------------------

// Line L of file N is emitted as line N * 10000 + L (shader_source.cpp says why).
TEST_CASE("includes expand recursively with #line pointing back at each file", "[shader_source]") {
  const FileMap files = {
      {"main.comp", "#version 450\nmain one\n#include \"outer.glsl\"\nmain three\n"},
      {"outer.glsl", "outer one\n#include \"inner.glsl\"\nouter three\n"},
      {"inner.glsl", "inner one\n"},
  };
  const auto source = gl::preprocess_shader("main.comp", files, "#define A 1\n#define B 2");
  CHECK(source.text ==
        "#version 450\n"
        "#define A 1\n#define B 2\n"
        "#line 2 0\n"
        "main one\n"
        "#line 10001 1\n"
        "outer one\n"
        "#line 20001 2\n"
        "inner one\n"
        "#line 10003 1\n"
        "outer three\n"
        "#line 4 0\n"
        "main three\n");
  CHECK(source.files == std::vector<std::string>{"main.comp", "outer.glsl", "inner.glsl"});
}

TEST_CASE("a file included twice is expanded once", "[shader_source]") {
  const FileMap files = {
      {"main.comp", "#version 450\n#include \"a.glsl\"\n#include \"common/common.glsl\"\nend\n"},
      {"a.glsl", "#include \"common/common.glsl\"\na body\n"},
      {"common/common.glsl", "common body\n"},
  };
  const auto source = gl::preprocess_shader("main.comp", files);
  std::size_t count = 0;
  for (auto at = source.text.find("common body"); at != std::string::npos;
       at = source.text.find("common body", at + 1)) {
    ++count;
  }
  CHECK(count == 1);
  CHECK(source.files.size() == 3);
  // The skipped include still occupies its line, so "end" stays line 4 of main.comp.
  CHECK_THAT(source.text, Contains("#line 3 0\n\nend\n"));
}

TEST_CASE("include errors name the including file and line", "[shader_source]") {
  SECTION("a missing file") {
    const FileMap files = {{"main.comp", "#version 450\n\n#include \"nope.glsl\"\n"}};
    const std::string error = gpu_error_of([&] { gl::preprocess_shader("main.comp", files); });
    CHECK(error == "main.comp:3: cannot include \"nope.glsl\": no such shader file");
  }
  SECTION("a cycle") {
    const FileMap files = {
        {"main.comp", "#version 450\n#include \"a.glsl\"\n"},
        {"a.glsl", "// a\n#include \"b.glsl\"\n"},
        {"b.glsl", "#include \"a.glsl\"\n"},
    };
    const std::string error = gpu_error_of([&] { gl::preprocess_shader("main.comp", files); });
    CHECK(error ==
          "b.glsl:1: cannot include \"a.glsl\": include cycle main.comp -> a.glsl -> b.glsl -> "
          "a.glsl");
  }
  SECTION("a malformed include") {
    const FileMap files = {{"main.comp", "#version 450\n#include <a.glsl>\n"}};
    CHECK_THAT(gpu_error_of([&] { gl::preprocess_shader("main.comp", files); }),
               StartsWith("main.comp:2: malformed #include"));
  }
  SECTION("a main file without #version") {
    const FileMap files = {{"main.comp", "void main() {}\n"}};
    CHECK(gpu_error_of([&] { gl::preprocess_shader("main.comp", files); }) ==
          "main.comp:1: a shader must start with #version");
  }
  SECTION("an embedded file is named by its path in the repository") {
    CHECK(gpu_error_of([&] {
            gl::preprocess_shader("no_such_file.comp", gl::embedded_shader_files());
          }) == "shaders/no_such_file.comp: no such shader file");
  }
}

TEST_CASE("driver logs of Mesa and NVIDIA map back to file:line with numbered source",
          "[shader_source]") {
  const FileMap files = {
      {"main.comp", "#version 450\n#include \"helper.glsl\"\nvoid main() {}\n"},
      {"helper.glsl", "line one\nline two\nline three\n"},
  };
  const auto source = gl::preprocess_shader("main.comp", files);
  const std::string expected =
      "helper.glsl:2: error: `x' undeclared\n"
      "     1 | line one\n"
      ">    2 | line two\n"
      "     3 | line three";
  SECTION("Mesa") {
    CHECK(gl::format_shader_log("1:10002(7): error: `x' undeclared\n", source) == expected);
  }
  SECTION("NVIDIA") {
    CHECK(gl::format_shader_log("1(10002) : error C1008: `x' undeclared\n", source) ==
          "helper.glsl:2: error: `x' undeclared (C1008)\n"
          "     1 | line one\n"
          ">    2 | line two\n"
          "     3 | line three");
  }
  SECTION("several messages about one line share one excerpt, after the last") {
    CHECK(gl::format_shader_log("0:10002(7): error: `x' undeclared\n"
                                "0:10002(9): error: operands must be numeric\n",
                                source) ==
          "helper.glsl:2: error: `x' undeclared\n"
          "helper.glsl:2: error: operands must be numeric\n"
          "     1 | line one\n"
          ">    2 | line two\n"
          "     3 | line three");
  }
  SECTION("the file comes from the line number, not the source string number") {
    // Mesa 22 reports string 0 for some errors inside included files.
    CHECK(gl::format_shader_log("0:10002(7): error: `x' undeclared\n", source) == expected);
  }
  SECTION("lines without a known location pass through") {
    CHECK(gl::format_shader_log("something odd\n9:90001(1): error: no such file", source) ==
          "something odd\n9:90001(1): error: no such file");
  }
}

// --- programs ------------------------------------------------------------------------------

TEST_CASE("a compile error in an included file names that file and line", "[program]") {
  auto context = make_context();
  const TestShaderFiles test_files;
  const std::string error =
      gpu_error_of([&] { gl::Program::compute("broken_main.comp", {}, test_files.files); });
  INFO(error);
  CHECK_THAT(first_line(error), StartsWith("broken_helper.glsl:7: error"));
  CHECK_THAT(error, Contains("undeclared_identifier"));
  CHECK_THAT(error, Contains(">    7 |   return base + undeclared_identifier;"));
}

TEST_CASE("the first line of a compile error is the first error and not a warning", "[program]") {
  auto context = make_context();
  // Mesa warns about the unknown extension (line 2) before the error (line 4).
  const FileMap files = {{"warned.comp", R"(#version 450
#extension GL_MURMUR_no_such_extension : warn
layout(local_size_x = 1) in;
void main() { undeclared_call(); }
)"}};
  const std::string error = gpu_error_of([&] { gl::Program::compute("warned.comp", {}, files); });
  INFO(error);
  CHECK_THAT(first_line(error), StartsWith("warned.comp:4: error"));
}

TEST_CASE("a program's uniforms are found by name, and a missing one is an error", "[program]") {
  auto context = make_context();
  gl::DebugMessenger messenger;
  const FileMap files = {{"uniform.comp", R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint value; };
uniform uint u_value;
void main() { value = u_value; }
)"}};
  const auto program = gl::Program::compute("uniform.comp", {}, files);
  const GLint location = program.uniform("u_value");
  REQUIRE(location >= 0);
  // GL would answer -1 and drop every value set there: a misspelt name must fail at load.
  CHECK_THAT(gpu_error_of([&] { program.uniform("u_not_there"); }),
             Contains("uniform.comp: no active uniform 'u_not_there'"));
  constexpr GLuint kValue = 1234;
  const gl::Uniform value(program, "u_value");
  value.set(kValue);
  gl::Buffer out("uniform out", sizeof(GLuint));
  out.bind_storage(0);
  program.use();
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  GLuint read = 0;
  out.download(0, sizeof read, &read);
  CHECK(read == kValue);
  CHECK(messenger.error_count() == 0);
}

TEST_CASE("a uniform a variant compiled out is -1, a misspelt one still an error", "[program]") {
  auto context = make_context();
  gl::DebugMessenger messenger;
  const FileMap files = {{"variant.comp", R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint value; };
uniform uint u_first;
uniform uint u_second[2];
void main() {
#ifdef USE_SECOND
  value = u_second[1];
#else
  value = u_first;
#endif
}
)"}};
  const auto first = gl::Program::compute("variant.comp", {}, files);
  const auto second = gl::Program::compute("variant.comp", "#define USE_SECOND 1\n", files);
  CHECK(first.uniform_if_declared("u_first") >= 0);
  CHECK(first.uniform_if_declared("u_second") == -1);
  CHECK(second.uniform_if_declared("u_first") == -1);
  CHECK(second.uniform_if_declared("u_second") >= 0);
  // The plain lookup keeps refusing a name the linker dropped.
  CHECK_THAT(gpu_error_of([&] { second.uniform("u_first"); }), Contains("no active uniform"));
  for (const char* misspelt : {"u_firs", "u_not_there", "first", "u_second_"}) {
    INFO(misspelt);
    CHECK_THAT(gpu_error_of([&] { first.uniform_if_declared(misspelt); }),
               Contains(std::string("variant.comp: no uniform '") + misspelt + "' declared"));
  }
  // Setting a compiled-out uniform is a no-op GL accepts.
  const gl::Uniform compiled_out(second, "u_first", gl::Uniform::MayBeCompiledOut{});
  compiled_out.set(std::uint32_t{7});
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(messenger.error_count() == 0);
}
