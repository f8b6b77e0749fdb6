#pragma once
// The floor plan's exports (docs/floor-plan.md): SVG and DXF drawings of plan_drawing's
// segments, a PNG of ink on paper, and a CSV of the agents' paths. Every export is a pure
// function of the scenario and the plan state, written through an AtomicFile, so the same run
// gives the same bytes and no half-written file ever carries the final name.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/gtc/type_precision.hpp>
#include <glm/vec2.hpp>
#include <glm/ext/vector_double2.hpp>

#include "murmur/plan/plan.hpp"
#include "murmur/base/image.hpp"

namespace murmur {

enum class PlanFormat : std::uint32_t { Svg = 0, Dxf = 1, Png = 2, Csv = 3 };
// The formats' names, as --format takes them and as file extensions (without the dot).
inline constexpr std::string_view kPlanFormatNames[] = {"svg", "dxf", "png", "csv"};
constexpr const auto& names_of(PlanFormat) { return kPlanFormatNames; }

// The format a file name's extension names (case-insensitive), or nothing.
std::optional<PlanFormat> plan_format_of(const std::filesystem::path& path);

// Black ink on white paper, as origin 003 draws (its background(255) and default stroke).
inline constexpr glm::u8vec4 kPlanInk{0, 0, 0, 255};
inline constexpr glm::u8vec4 kPlanPaper{255, 255, 255, 255};

// A world point (y up, docs/scenarios.md "Units") on the page of an SVG or PNG (y down from the
// top-left corner): (x, canvas.y - y). In double, where the difference of two floats is exact,
// so a reader subtracting it from canvas.y again gets the same float back.
glm::dvec2 plan_page_point(glm::vec2 canvas, glm::vec2 world);

// One run of an agent's consecutive segments of equal width: an SVG <polyline>, a DXF
// LWPOLYLINE. A run holds at least two points; the next run of the same agent starts at the
// point where this one ends. Splitting by width keeps every stroke one weight, which SVG's
// stroke-width and a DXF layer's lineweight both require.
struct PlanStroke {
  std::uint32_t agent = 0;  // the agent's id
  float width = 0;          // world units
  std::vector<glm::vec2> points;
};

// plan_drawing's result: per agent (in the state's agent order), its segments along its path.
using PlanDrawing = std::vector<std::vector<PlanSegment>>;

// The strokes of `drawing` (plan_drawing's result for `state`), agent by agent in the
// drawing's order, and along each agent's path in drawing order.
std::vector<PlanStroke> plan_strokes(const PlanState& state, const PlanDrawing& drawing);

// The SVG document: a `canvas`-sized page of paper, and per agent with any line a group
// `<g id="agent-ID">` of its strokes as `<polyline stroke-width=W points="x,y ...">` in page
// coordinates (plan_page_point). Numbers print with enough digits to read back exactly.
std::string plan_svg(glm::vec2 canvas, const std::vector<PlanStroke>& strokes);

// The DXF layer a stroke of `width` goes on: "width-1", "width-2", "width-1.5".
std::string plan_dxf_layer(float width);
// The DXF lineweight (hundredths of a millimetre) of a layer of `width`: width times
// kDxfLineweightPerWidth, rounded to the nearest lineweight CAD programs accept.
int plan_dxf_lineweight(float width);
// Writes the strokes as an AutoCAD 2000 DXF (through libdxflib): one LWPOLYLINE per stroke, on
// its width's layer, in world coordinates (one drawing unit per world unit; CAD's y is up like
// the world's). Throws OutputError naming `path`.
void write_plan_dxf(const std::filesystem::path& path, const std::vector<PlanStroke>& strokes);

// Ink on paper at `width` x `height` pixels: the page (plan_page_point) scaled uniformly to
// fit, centred, and
// each segment inked as its stroked rectangle (square caps, width scaled too, at least one
// pixel). A pixel is ink when its centre lies in a rectangle, the left and top edges included
// and the right and bottom ones not, so that a stroke of one pixel covers exactly one column
// or row wherever it lies. Only kPlanInk and kPlanPaper appear.
RgbaImage plan_image(glm::vec2 canvas, const PlanDrawing& drawing, int width, int height);

// The CSV `agent,step,x,y,drawn_x,drawn_y,turns,alive,parent`, gathered along a run: after
// each plan_step, add_step() appends one row per point that step saved (per agent that moved),
// with the agent's turns and life as that step left them, and its parent's id (empty for a
// start's agent; a child's origin is its parent's row at the step before its first, snapped).
class PlanCsv {
 public:
  static constexpr const char* kHeader = "agent,step,x,y,drawn_x,drawn_y,turns,alive,parent\n";

  PlanCsv() : text_(kHeader) {}
  // Rows for state.points[first_point...], the points the last step appended.
  void add_step(const PlanState& state, std::size_t first_point);
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace murmur
