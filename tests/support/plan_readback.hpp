#pragma once
// Reads the plan's exports back into segments, independently of the writers: the SVG by its
// <g id="agent-N"> groups and <polyline> elements, the DXF through libdxflib's reader. A
// test compares what they give with plan_drawing.
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <dl_creationadapter.h>
#include <dl_dxf.h>
#include <glm/vec2.hpp>

#include "murmur/plan/plan.hpp"

namespace murmur::test {

// A read-back segment, and the agent id its file gave it (the SVG's group; the DXF has none).
struct ReadSegment {
  std::uint32_t agent = 0;
  glm::vec2 from{0.0f}, to{0.0f};
  float width = 0;
  bool operator==(const ReadSegment&) const = default;
};

// Catch prints a mismatched segment with this.
inline std::ostream& operator<<(std::ostream& out, const ReadSegment& segment) {
  return out << "agent " << segment.agent << " (" << segment.from.x << ", " << segment.from.y
             << ")-(" << segment.to.x << ", " << segment.to.y << ") width " << segment.width;
}

inline float read_float(const std::string& text) {
  float value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size()) {
    throw std::runtime_error("not a float: '" + text + "'");
  }
  return value;
}

// The segments a drawing holds, agent ids from the state, in drawing order.
inline std::vector<ReadSegment> drawing_segments(const PlanState& state,
                                                 const std::vector<std::vector<PlanSegment>>& drawing) {
  std::vector<ReadSegment> segments;
  for (std::size_t a = 0; a < drawing.size(); ++a) {
    for (const PlanSegment& segment : drawing[a]) {
      segments.push_back({state.agents[a].id, segment.from, segment.to, segment.width});
    }
  }
  return segments;
}

// What an SVG export holds.
struct SvgPlan {
  std::string width, height, view_box;
  // Consecutive points of each polyline, in file order, back in world coordinates: y up from
  // the page's bottom edge (y = height - page y, in double as the writer subtracted).
  std::vector<ReadSegment> segments;
};

inline SvgPlan read_svg(const std::string& svg) {
  SvgPlan plan;
  std::smatch match;
  static const std::regex root(R"re(<svg [^>]*width="([^"]+)" height="([^"]+)" viewBox="([^"]+)")re");
  if (!std::regex_search(svg, match, root)) throw std::runtime_error("SVG lacks its <svg> size");
  plan.width = match[1];
  plan.height = match[2];
  plan.view_box = match[3];
  const double height = std::stod(plan.height);
  // Groups and polylines in file order; a polyline belongs to the last group opened.
  static const std::regex element(
      R"re(<g id="agent-([0-9]+)">|<polyline stroke-width="([^"]+)" points="([^"]*)"/>)re");
  std::uint32_t agent = 0;
  bool in_agent = false;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[1].matched) {
      agent = static_cast<std::uint32_t>(std::stoul((*it)[1]));
      in_agent = true;
      continue;
    }
    if (!in_agent) throw std::runtime_error("a polyline outside an agent's group");
    const float width = read_float((*it)[2]);
    std::istringstream points((*it)[3].str());
    std::vector<glm::vec2> vertices;
    for (std::string pair; points >> pair;) {
      const std::size_t comma = pair.find(',');
      const double page_y = std::stod(pair.substr(comma + 1));
      vertices.emplace_back(read_float(pair.substr(0, comma)), static_cast<float>(height - page_y));
    }
    if (vertices.size() < 2) throw std::runtime_error("a polyline with fewer than 2 points");
    for (std::size_t i = 1; i < vertices.size(); ++i) {
      plan.segments.push_back({agent, vertices[i - 1], vertices[i], width});
    }
  }
  return plan;
}

// What a DXF export holds, as libdxflib reads it.
struct DxfPlan {
  std::map<std::string, int> layer_lineweights;  // layer name -> lineweight (1/100 mm)
  std::vector<std::string> polyline_layers;      // each LWPOLYLINE's layer, in file order
  std::vector<std::vector<glm::dvec2>> polylines;
};

class DxfPlanReader : public DL_CreationAdapter {
 public:
  DxfPlan plan;
  void addLayer(const DL_LayerData& data) override {
    plan.layer_lineweights[data.name] = getAttributes().getWidth();
  }
  void addPolyline(const DL_PolylineData& data) override {
    plan.polyline_layers.push_back(getAttributes().getLayer());
    plan.polylines.emplace_back();
    plan.polylines.back().reserve(data.number);
  }
  void addVertex(const DL_VertexData& data) override {
    if (plan.polylines.empty()) throw std::runtime_error("a vertex before any polyline");
    plan.polylines.back().emplace_back(data.x, data.y);
  }
};

inline DxfPlan read_dxf(const std::filesystem::path& path) {
  DxfPlanReader reader;
  DL_Dxf dxf;
  if (!dxf.in(path.string(), &reader)) throw std::runtime_error("libdxflib cannot read " + path.string());
  return reader.plan;
}

// The DXF's polylines as world segments (CAD's y is up, as the world's), the width from the
// layer's name "width-W". Agent ids are not in a DXF; they stay 0.
inline std::vector<ReadSegment> dxf_segments(const DxfPlan& plan) {
  std::vector<ReadSegment> segments;
  for (std::size_t p = 0; p < plan.polylines.size(); ++p) {
    const std::string& layer = plan.polyline_layers[p];
    if (!layer.starts_with("width-")) throw std::runtime_error("polyline on layer " + layer);
    const float width = read_float(layer.substr(std::string("width-").size()));
    const std::vector<glm::dvec2>& vertices = plan.polylines[p];
    for (std::size_t i = 1; i < vertices.size(); ++i) {
      segments.push_back({0, glm::vec2(vertices[i - 1]), glm::vec2(vertices[i]), width});
    }
  }
  return segments;
}

}  // namespace murmur::test
