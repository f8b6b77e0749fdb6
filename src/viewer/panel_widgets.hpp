#pragma once
// The parts of the viewers' panels that mean the same whatever is simulated: editors for a
// table key by its widget (include/murmur/scenario/params/param_info.hpp), a scenario edit checked
// before it is applied, the scenario file's buttons, the seed, the steps per frame, the glow
// and camera settings, and the key help table. The flock's panel (panel.hpp) and the floor
// plan's (plan_panel.hpp) are built from them.
#include <imgui.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include <glm/vec3.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/scenario/params/param_info.hpp"
#include "murmur/render/renderer.hpp"
#include "murmur/scenario/scenario.hpp"
#include "viewer/fit_beside_panel.hpp"

namespace murmur::viewer {

inline const ImVec4 kErrorColour{1.0f, 0.35f, 0.3f, 1.0f};
inline const ImVec4 kErrorFrameColour{0.55f, 0.08f, 0.06f, 1.0f};
inline const ImVec4 kDimColour{0.6f, 0.6f, 0.6f, 1.0f};

// The panel's width at first (the user may drag it wider): every line of the panels fits in it
// (tests/viewer/test_panel_layout.cpp).
inline constexpr float kPanelWidth = 420;

// The panel's window, at the right of the frame: false when collapsed (nothing to draw, and
// no end_panel_window() to call). `span` gets the part of the window's width it covers, which
// F keeps the world clear of (fit_beside_panel.hpp); nothing while collapsed.
bool begin_panel_window(std::optional<PanelSpan>& span);
void end_panel_window();

// A section of the panel: a collapsing header, open at first when `open_at_first`; true while
// open.
bool section_header(const char* label, bool open_at_first = false);
// Every section drawn open whatever the user chose, so that a test measures every line.
void open_every_section(bool open);

// A combo box over an enum's TOML names (the scenario tables' choices).
template <std::size_t N>
bool choice_combo(const char* label, std::uint32_t& value, const std::string_view (&names)[N]) {
  bool changed = false;
  if (!ImGui::BeginCombo(label, value < N ? names[value].data() : "?")) return false;
  for (std::size_t k = 0; k < N; ++k) {
    if (ImGui::Selectable(names[k].data(), k == value)) {
      changed = changed || k != value;
      value = static_cast<std::uint32_t>(k);
    }
  }
  ImGui::EndCombo();
  return changed;
}

// The panel's editor of one table key, by the key's type and its table widget; `world_side`
// scales a world slider's end.
bool value_field(const std::string& name, float& value, const params::Widget& widget,
                 float world_side);
bool value_field(const std::string& name, std::uint32_t& value, const params::Widget& widget,
                 float world_side);
bool value_field(const std::string& name, bool& value, const params::Widget& widget, float);
bool value_field(const std::string& name, std::string& value, const params::Widget& widget,
                 float);
template <class Enum>
  requires std::is_enum_v<Enum>
bool value_field(const std::string& name, Enum& value, const params::Widget&, float) {
  auto index = static_cast<std::uint32_t>(value);
  if (!choice_combo(name.c_str(), index, names_of(value))) return false;
  value = static_cast<Enum>(index);
  return true;
}
bool colour_field(const std::string& name, glm::vec3& colour);
// A slider for a setting that may be unset (a [render] key the renderer falls back from):
// shows the fallback until moved, then sets the value.
bool optional_slider(const char* label, std::optional<float>& value, float fallback, float min,
                     float max, const char* format);
bool combo(const char* label, std::uint32_t& value, const char* const* names, int count);

// Scenario edits: every widget edits a copy, which is applied only if validate_scenario takes
// it. An invalid edit (Ctrl+Click lets one type anything) stays in the panel as the draft, its
// widget red with the validator's message, and the simulation keeps the last valid settings.
// Kind: FlockScenario or PlanScenario, the kind the panel edits.
template <class Kind>
class ScenarioDraft {
 public:
  // The scenario the widgets edit this frame: the draft, or a copy of the running one.
  Kind begin(const Kind& running) {
    edited_field_.clear();
    return draft_ ? *draft_ : running;
  }
  // One widget (a callable returning whether it changed its value) under `id`.
  template <typename Widget>
  void field(const std::string& id, Widget widget) {
    const bool invalid = draft_.has_value() && error_field_ == id;
    if (invalid) ImGui::PushStyleColor(ImGuiCol_FrameBg, kErrorFrameColour);
    ImGui::PushID(id.c_str());
    if (widget()) edited_field_ = id;
    ImGui::PopID();
    if (invalid) {
      ImGui::PopStyleColor();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kErrorColour, "%s", error_.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  // After the widgets: `work` if a widget changed it and it validates (the draft is dropped);
  // nothing otherwise (an invalid `work` becomes the draft). The id of the changed widget is
  // edited_field().
  std::optional<Kind> end(Kind work) {
    last_edited_ = edited_field_;
    if (edited_field_.empty()) return std::nullopt;
    try {
      validate_scenario(work);
      draft_.reset();
      error_.clear();
      return work;
    } catch (const InputError& error) {
      draft_ = std::move(work);
      error_ = error.what();
      error_field_ = edited_field_;
      return std::nullopt;
    }
  }
  const std::string& edited_field() const { return last_edited_; }
  bool invalid() const { return draft_.has_value(); }
  // "Not applied" and a button that discards the draft, while there is one.
  void show_invalid_notice() {
    if (!draft_) return;
    ImGui::TextColored(kErrorColour, "Not applied: the simulation keeps the last valid settings.");
    if (ImGui::Button("Discard the invalid edit")) discard();
  }
  void discard() {
    draft_.reset();
    error_.clear();
    error_field_.clear();
  }

 private:
  std::optional<Kind> draft_;  // only while an edit is invalid
  std::string error_;              // the validator's message for draft_
  std::string error_field_;        // the widget that made draft_ invalid
  std::string edited_field_;       // set by field() when a widget changed this frame
  std::string last_edited_;
};

// The scenario file's buttons: Load a path, Save to a path, Reset to file; and a line saying
// what the last of them did.
class ScenarioFiles {
 public:
  struct Requests {
    std::optional<std::filesystem::path> load;
    std::optional<std::filesystem::path> save;
    bool reset_to_file = false;
  };
  explicit ScenarioFiles(const std::filesystem::path& scenario_path);
  Requests draw(const std::string& source);
  void set_message(std::string message, bool is_error);

 private:
  std::string load_path_;
  std::string save_path_;
  std::string message_;
  bool message_is_error_ = false;
};

// The world's size and seed, with Restart with this seed and New random seed.
class SeedField {
 public:
  struct Requests {
    std::optional<std::uint64_t> restart_with_seed;
    bool new_random_seed = false;
  };
  Requests draw(const ScenarioCommon& running);
  void reset() { set_ = false; }

 private:
  std::uint64_t seed_ = 0;
  bool set_ = false;
};

// The steps-per-frame slider (a changed value), or the fixed step rate it cannot change.
std::optional<std::uint32_t> steps_per_frame_field(std::uint32_t steps_per_frame,
                                                   double step_rate);
// Blend (glow or ink), paper, bloom and exposure: the renderer's "Glow" settings.
void glow_section(RenderSettings& render);
// Zoom, centre and a Fit view button; true when the button was pressed.
bool camera_section(RenderSettings& render);
// A collapsed "Keys and mouse" table of (key, action) rows.
void key_help_section(std::span<const std::array<const char*, 2>> rows);

}  // namespace murmur::viewer
