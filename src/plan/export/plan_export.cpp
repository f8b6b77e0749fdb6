// The plan's strokes, SVG and CSV (include/murmur/plan/export/plan_export.hpp).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

#include "murmur/base/float_text.hpp"
#include "murmur/plan/export/plan_export.hpp"

namespace murmur {

std::optional<PlanFormat> plan_format_of(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  if (extension.empty()) return std::nullopt;
  extension.erase(0, 1);  // the dot
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::size_t i = 0; i < std::size(kPlanFormatNames); ++i) {
    if (extension == kPlanFormatNames[i]) return static_cast<PlanFormat>(i);
  }
  return std::nullopt;
}

glm::dvec2 plan_page_point(glm::vec2 canvas, glm::vec2 world) {
  return {world.x, double{canvas.y} - double{world.y}};
}

std::vector<PlanStroke> plan_strokes(const PlanState& state, const PlanDrawing& drawing) {
  std::vector<PlanStroke> strokes;
  for (std::size_t a = 0; a < drawing.size(); ++a) {
    const std::uint32_t agent = state.agents[a].id;
    const std::size_t agent_first_stroke = strokes.size();
    for (const PlanSegment& segment : drawing[a]) {
      // A segment continues the stroke when it has the same width and starts where the stroke
      // ends; the drawing's segments are a chain, so only a change of width starts a stroke.
      const bool continues = strokes.size() > agent_first_stroke &&
                             strokes.back().width == segment.width &&
                             strokes.back().points.back() == segment.from;
      if (!continues) strokes.push_back({agent, segment.width, {segment.from}});
      strokes.back().points.push_back(segment.to);
    }
  }
  return strokes;
}

namespace {

// "#rrggbb" of an 8-bit colour.
std::string svg_colour(glm::u8vec4 colour) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", colour.r, colour.g, colour.b);
  return text;
}

}  // namespace

std::string plan_svg(glm::vec2 canvas, const std::vector<PlanStroke>& strokes) {
  std::string width, height;
  append_float(width, canvas.x);
  append_float(height, canvas.y);
  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width +
                    "\" height=\"" + height + "\" viewBox=\"0 0 " + width + " " + height +
                    "\">\n"
                    "<rect width=\"" + width + "\" height=\"" + height + "\" fill=\"" +
                    svg_colour(kPlanPaper) + "\"/>\n"
                    // Square caps and mitred joins: the plan's corners are right angles, and
                    // the PNG export inks the same square ends.
                    "<g fill=\"none\" stroke=\"" + svg_colour(kPlanInk) +
                    "\" stroke-linecap=\"square\" stroke-linejoin=\"miter\">\n";
  for (std::size_t i = 0; i < strokes.size(); ++i) {
    const PlanStroke& stroke = strokes[i];
    const bool opens_agent = i == 0 || strokes[i - 1].agent != stroke.agent;
    if (opens_agent) {
      svg += "<g id=\"agent-";
      append_integer(svg, stroke.agent);
      svg += "\">\n";
    }
    svg += "<polyline stroke-width=\"";
    append_float(svg, stroke.width);
    svg += "\" points=\"";
    for (std::size_t p = 0; p < stroke.points.size(); ++p) {
      if (p > 0) svg += ' ';
      const glm::dvec2 page = plan_page_point(canvas, stroke.points[p]);
      append_double(svg, page.x);
      svg += ',';
      append_double(svg, page.y);
    }
    svg += "\"/>\n";
    const bool closes_agent = i + 1 == strokes.size() || strokes[i + 1].agent != stroke.agent;
    if (closes_agent) svg += "</g>\n";
  }
  return svg + "</g>\n</svg>\n";
}

void PlanCsv::add_step(const PlanState& state, std::size_t first_point) {
  for (std::size_t p = first_point; p < state.points.size(); ++p) {
    const PlanPoint& point = state.points[p];
    const PlanAgent& agent = state.agents[point.agent];
    append_integer(text_, agent.id);
    text_ += ',';
    append_integer(text_, point.step);
    for (const float value : {point.raw.x, point.raw.y, point.drawn.x, point.drawn.y}) {
      text_ += ',';
      append_float(text_, value);
    }
    text_ += ',';
    append_integer(text_, agent.turns);
    text_ += agent.alive ? ",1," : ",0,";
    if (agent.parent != kPlanNoParent) append_integer(text_, agent.parent);
    text_ += '\n';
  }
}

}  // namespace murmur
