// Headless OpenGL 4.5 core contexts through EGL: no window, no X server.
//
// Order of attempts (docs/gpu.md): every EGL device that is real hardware, then every software
// device (Mesa's llvmpipe shows up as one carrying EGL_MESA_device_software), then Mesa's
// surfaceless platform. MURMUR_EGL_PLATFORM=device|surfaceless restricts the search to one.
// libEGL is dlopened by glad's loader, so nothing links against libEGL at build time.
#include <glad/egl.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "murmur/base/errors.hpp"
#include "murmur/gl/context.hpp"
#include "murmur/gl/gl.hpp"

namespace murmur::gl {
namespace {

constexpr int kRequiredMajor = 4;
constexpr int kRequiredMinor = 5;
constexpr const char* kPlatformEnv = "MURMUR_EGL_PLATFORM";
// The one EGL device to use, by its index in eglQueryDevicesEXT's list: how a machine with
// several GPUs gives each process its own (docs/python.md, "One worker per GPU").
constexpr const char* kDeviceEnv = "MURMUR_EGL_DEVICE";
// Upper bound on devices asked of eglQueryDevicesEXT; real machines have a handful.
constexpr EGLint kMaxDevices = 32;

const char* egl_error_name(EGLint code) {
  switch (code) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "unknown EGL error";
  }
}

// One failed step, as it appears in the GpuError: "eglInitialize failed (EGL_NOT_INITIALIZED)".
std::string egl_failure(const char* step) {
  return std::string(step) + " failed (" + egl_error_name(eglGetError()) + ")";
}

bool has_extension(const char* extensions, std::string_view name) {
  if (extensions == nullptr) return false;
  std::string_view list(extensions);
  for (std::size_t pos = 0; pos < list.size();) {
    const std::size_t end = std::min(list.find(' ', pos), list.size());
    if (list.substr(pos, end - pos) == name) return true;
    pos = end + 1;
  }
  return false;
}

// eglTerminate is per display, and EGL hands every caller of the same platform/device the
// same display: count live contexts per display so that closing one leaves the others alive.
std::map<EGLDisplay, int>& display_users() {
  static std::map<EGLDisplay, int> users;
  return users;
}

void release_display(EGLDisplay display) {
  auto& users = display_users();
  auto it = users.find(display);
  if (it == users.end()) return;
  if (--it->second == 0) {
    users.erase(it);
    eglTerminate(display);
  }
}

class EglContext final : public Context {
 public:
  EglContext(EGLDisplay display, EGLContext context, std::string platform)
      : display_(display), context_(context) {
    info_.platform = std::move(platform);
  }
  ~EglContext() override {
    const bool current = eglGetCurrentContext() == context_;
    remove_debug_output(current);
    if (current) eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    release_display(display_);
  }
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;
  using Context::install_debug_output;

  void make_current() override {
    if (eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_) != EGL_TRUE) {
      throw GpuError("cannot make the " + info_.platform + " context current: " +
                     egl_failure("eglMakeCurrent"));
    }
  }
  void set_gl_strings() {
    auto text = [](GLenum name) {
      const auto* value = reinterpret_cast<const char*>(glGetString(name));
      return std::string(value != nullptr ? value : "");
    };
    info_.vendor = text(GL_VENDOR);
    info_.renderer = text(GL_RENDERER);
    info_.version = text(GL_VERSION);
  }

 private:
  EGLDisplay display_;
  EGLContext context_;
};

// A display to try: how to get it and how to name it in messages.
struct Candidate {
  std::string name;  // "EGL device 0 (hardware)", "EGL surfaceless"
  std::string platform;  // ContextInfo::platform
  EGLenum egl_platform;
  void* native;  // the EGLDeviceEXT, or EGL_DEFAULT_DISPLAY
};

// Tries one display; returns the current context, or nullptr with `failure` set.
std::unique_ptr<EglContext> try_display(const Candidate& candidate, bool debug,
                                        std::string& failure) {
  EGLDisplay display = eglGetPlatformDisplayEXT(candidate.egl_platform, candidate.native, nullptr);
  if (display == EGL_NO_DISPLAY) {
    failure = egl_failure("eglGetPlatformDisplayEXT");
    return nullptr;
  }
  EGLint egl_major = 0, egl_minor = 0;
  if (eglInitialize(display, &egl_major, &egl_minor) != EGL_TRUE) {
    failure = egl_failure("eglInitialize");
    return nullptr;
  }
  ++display_users()[display];
  // From here every failure must give the display back.
  auto fail = [&](std::string why) -> std::unique_ptr<EglContext> {
    failure = std::move(why);
    release_display(display);
    return nullptr;
  };
  // Reload with the display so that display extensions (no_config_context...) are known.
  if (gladLoaderLoadEGL(display) == 0) return fail("gladLoaderLoadEGL(display) failed");
  if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) return fail(egl_failure("eglBindAPI(EGL_OPENGL_API)"));

  // A pbuffer-capable desktop-GL config where the display has one (NVIDIA, Mesa); otherwise
  // no config at all, which KHR_no_config_context allows for surfaceless rendering.
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = EGL_NO_CONFIG_KHR;
  EGLint config_count = 0;
  if (eglChooseConfig(display, config_attributes, &config, 1, &config_count) != EGL_TRUE ||
      config_count < 1) {
    config = EGL_NO_CONFIG_KHR;
    if (!GLAD_EGL_KHR_no_config_context) {
      return fail("no pbuffer config with OpenGL and no EGL_KHR_no_config_context");
    }
  }
  const bool egl15 = egl_major > 1 || (egl_major == 1 && egl_minor >= 5);
  if (!egl15 && !GLAD_EGL_KHR_create_context) {
    return fail("EGL " + std::to_string(egl_major) + "." + std::to_string(egl_minor) +
                " without EGL_KHR_create_context cannot request a core profile");
  }
  // Not core in EGL 1.5 either: rendering goes to FBOs, so the context needs no surface.
  if (!GLAD_EGL_KHR_surfaceless_context) {
    return fail("no EGL_KHR_surfaceless_context");
  }
  std::vector<EGLint> context_attributes = {
      EGL_CONTEXT_MAJOR_VERSION, kRequiredMajor, EGL_CONTEXT_MINOR_VERSION, kRequiredMinor,
      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
  if (debug) {
    // EGL 1.5 names the debug flag itself; 1.4 only has it through KHR_create_context's flags.
    if (egl15) {
      context_attributes.insert(context_attributes.end(), {EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE});
    } else {
      context_attributes.insert(context_attributes.end(),
                                {EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR});
    }
  }
  context_attributes.push_back(EGL_NONE);
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes.data());
  if (context == EGL_NO_CONTEXT) {
    return fail(egl_failure(("eglCreateContext(OpenGL " + std::to_string(kRequiredMajor) + "." +
                             std::to_string(kRequiredMinor) + " core)")
                                .c_str()));
  }
  // The context now owns the display reference.
  auto owned = std::make_unique<EglContext>(display, context, candidate.platform);
  if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) {
    failure = egl_failure("eglMakeCurrent(no surface)");
    return nullptr;
  }
  const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress));
  if (version == 0) {
    failure = "gladLoadGL found no OpenGL entry points";
    return nullptr;
  }
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  owned->set_gl_strings();
  if (major < kRequiredMajor || (major == kRequiredMajor && minor < kRequiredMinor)) {
    failure = "got OpenGL " + std::to_string(major) + "." + std::to_string(minor) + " (" +
              owned->info().renderer + "), need " + std::to_string(kRequiredMajor) + "." +
              std::to_string(kRequiredMinor);
    return nullptr;
  }
  // Every command runs with debug output on; only a debug context pays for synchronous output.
  owned->install_debug_output(/*synchronous=*/debug);
  return owned;
}

// MURMUR_EGL_DEVICE's index, if set; an InputError unless it is a non-negative integer.
std::optional<EGLint> chosen_device() {
  const char* text = std::getenv(kDeviceEnv);
  if (text == nullptr || *text == '\0') return std::nullopt;
  EGLint index = 0;
  const char* end = text + std::strlen(text);
  const auto [stop, error] = std::from_chars(text, end, index);
  if (error != std::errc{} || stop != end || index < 0) {
    throw InputError(std::string(kDeviceEnv) + "='" + text +
                     "' is not a device index: use 0, 1, ... (or leave it unset)");
  }
  return index;
}

// Hardware devices first, then software ones, in enumeration order; only the one
// MURMUR_EGL_DEVICE names when it is set.
void add_device_candidates(std::vector<Candidate>& candidates, std::vector<std::string>& tried) {
  const std::optional<EGLint> chosen = chosen_device();
  if (!GLAD_EGL_EXT_platform_device || !GLAD_EGL_EXT_device_enumeration ||
      eglQueryDevicesEXT == nullptr) {
    tried.push_back("EGL device: no EGL_EXT_platform_device/EGL_EXT_device_enumeration");
    return;
  }
  EGLDeviceEXT devices[kMaxDevices];
  EGLint count = 0;
  if (eglQueryDevicesEXT(kMaxDevices, devices, &count) != EGL_TRUE) {
    tried.push_back("EGL device: " + egl_failure("eglQueryDevicesEXT"));
    return;
  }
  if (count == 0) {
    tried.push_back("EGL device: no devices");
    return;
  }
  if (chosen && *chosen >= count) {
    throw GpuError(std::string(kDeviceEnv) + "=" + std::to_string(*chosen) + ": there are " +
                   std::to_string(count) + " EGL devices (0.." + std::to_string(count - 1) + ")");
  }
  std::vector<Candidate> software;
  for (EGLint index = 0; index < count; ++index) {
    if (chosen && index != *chosen) continue;
    const char* extensions = eglQueryDeviceStringEXT != nullptr
                                 ? eglQueryDeviceStringEXT(devices[index], EGL_EXTENSIONS)
                                 : nullptr;
    const bool is_software = has_extension(extensions, "EGL_MESA_device_software");
    Candidate candidate{"EGL device " + std::to_string(index) +
                            (is_software ? " (software)" : " (hardware)"),
                        "EGL device", EGL_PLATFORM_DEVICE_EXT, devices[index]};
    (is_software ? software : candidates).push_back(std::move(candidate));
  }
  candidates.insert(candidates.end(), software.begin(), software.end());
}

void add_surfaceless_candidate(std::vector<Candidate>& candidates,
                               std::vector<std::string>& tried) {
  if (!GLAD_EGL_MESA_platform_surfaceless) {
    tried.push_back("EGL surfaceless: no EGL_MESA_platform_surfaceless");
    return;
  }
  candidates.push_back(
      {"EGL surfaceless", "EGL surfaceless", EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY});
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

}  // namespace

std::unique_ptr<Context> create_headless_context(const HeadlessOptions& options) {
  const char* forced = std::getenv(kPlatformEnv);
  const std::string forced_platform = forced != nullptr ? forced : "";
  if (!forced_platform.empty() && forced_platform != "device" && forced_platform != "surfaceless") {
    throw InputError(std::string(kPlatformEnv) + "='" + forced_platform +
                     "' is not a platform: use device or surfaceless (or leave it unset)");
  }
  const std::string what =
      "no OpenGL " + std::to_string(kRequiredMajor) + "." + std::to_string(kRequiredMinor) +
      " core context" + (forced_platform.empty() ? "" : " (" + std::string(kPlatformEnv) + "=" +
                                                           forced_platform + ")");
  // Without a display this loads the client extensions (platforms, device enumeration).
  if (gladLoaderLoadEGL(EGL_NO_DISPLAY) == 0) {
    throw GpuError(what + ": cannot load libEGL.so.1 or it lacks eglGetProcAddress");
  }
  if (!GLAD_EGL_EXT_platform_base || eglGetPlatformDisplayEXT == nullptr) {
    throw GpuError(what + ": libEGL offers no EGL_EXT_platform_base (is no EGL driver installed?)");
  }

  std::vector<std::string> tried;
  std::vector<Candidate> candidates;
  if (forced_platform != "surfaceless") add_device_candidates(candidates, tried);
  // A chosen device is that device or nothing: a fallback would put two processes on one GPU.
  if (forced_platform != "device" && !chosen_device()) add_surfaceless_candidate(candidates, tried);

  for (const auto& candidate : candidates) {
    std::string failure;
    if (auto context = try_display(candidate, options.debug, failure)) return context;
    tried.push_back(candidate.name + ": " + failure);
  }
  throw GpuError(what + ": " + join(tried, "; "));
}

}  // namespace murmur::gl
