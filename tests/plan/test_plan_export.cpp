// The plan's exports on a hand-made plan whose answers are known: strokes split where the
// width changes; the SVG and the DXF (read through libdxflib) give back exactly the drawing's
// segments; the PNG inks exactly the pixels of each stroked segment, in two colours; the CSV's
// rows are exact; the same plan gives the same bytes. Then a run of origin 003's plan, read back.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "murmur/base/atomic_file.hpp"
#include "murmur/plan/export/plan_export.hpp"
#include "murmur/scenario/scenario.hpp"
#include "plan_readback.hpp"
#include "temp_dir.hpp"

using namespace murmur;
using murmur::test::ReadSegment;

namespace {

constexpr glm::vec2 kCanvas{100.0f, 80.0f};

// Two agents, ids 7 and 3 (sparse, and not in order). Agent 7 goes right (width 2), turns up
// (width 1, twice), then right again; agent 3 draws one short segment at awkward coordinates
// that need all of %.9g's digits. A third agent, id 5, has drawn nothing.
PlanState hand_made_state() {
  PlanState state{};
  state.step = 6;
  auto agent = [](std::uint32_t id, std::uint32_t turns, bool alive) {
    PlanAgent a{};
    a.id = id;
    a.turns = turns;
    a.alive = alive;
    return a;
  };
  state.agents = {agent(7, 2, true), agent(3, 0, false), agent(5, 0, true)};
  return state;
}

PlanDrawing hand_made_drawing() {
  return {
      {{{10, 20}, {30, 20}, 2},
       {{30, 20}, {40, 20}, 2},
       {{40, 20}, {40, 50}, 1},
       {{40, 50}, {40, 60}, 1},
       {{40, 60}, {70, 60}, 2}},
      {{{12.3456789f, 70.1f}, {12.3456789f, 0.333333343f}, 1}},
      {},
  };
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The drawing's segments without agent ids, as a DXF gives them back.
std::vector<ReadSegment> without_agents(std::vector<ReadSegment> segments) {
  for (ReadSegment& segment : segments) segment.agent = 0;
  return segments;
}

}  // namespace

TEST_CASE("strokes split an agent's path where the width changes", "[plan][export]") {
  const std::vector<PlanStroke> strokes = plan_strokes(hand_made_state(), hand_made_drawing());
  REQUIRE(strokes.size() == 4);
  CHECK(strokes[0].agent == 7);
  CHECK(strokes[0].width == 2);
  CHECK(strokes[0].points == std::vector<glm::vec2>{{10, 20}, {30, 20}, {40, 20}});
  CHECK(strokes[1].width == 1);
  CHECK(strokes[1].points == std::vector<glm::vec2>{{40, 20}, {40, 50}, {40, 60}});
  CHECK(strokes[2].width == 2);
  CHECK(strokes[2].points == std::vector<glm::vec2>{{40, 60}, {70, 60}});
  CHECK(strokes[3].agent == 3);
  CHECK(strokes[3].points.size() == 2);
}

TEST_CASE("the SVG reads back to the drawing's segments, agents and canvas", "[plan][export]") {
  const PlanState state = hand_made_state();
  const PlanDrawing drawing = hand_made_drawing();
  const test::SvgPlan svg = test::read_svg(plan_svg(kCanvas, plan_strokes(state, drawing)));
  CHECK(svg.width == "100");
  CHECK(svg.height == "80");
  CHECK(svg.view_box == "0 0 100 80");
  CHECK(svg.segments == test::drawing_segments(state, drawing));
}

TEST_CASE("the DXF reads back through libdxflib to the drawing, layered by width",
          "[plan][export]") {
  const test::ScratchDir dir("plan_dxf");
  const PlanState state = hand_made_state();
  const PlanDrawing drawing = hand_made_drawing();
  const std::filesystem::path path = dir.path / "plan.dxf";
  write_plan_dxf(path, plan_strokes(state, drawing));

  const test::DxfPlan dxf = test::read_dxf(path);
  CHECK(test::dxf_segments(dxf) == without_agents(test::drawing_segments(state, drawing)));
  CHECK(dxf.polyline_layers ==
        std::vector<std::string>{"width-2", "width-1", "width-2", "width-1"});
  // Layer "0" (CAD's default lineweight, -3) and one per width, each with its lineweight:
  // 0.25 mm per world unit.
  CHECK(dxf.layer_lineweights == std::map<std::string, int>{{"0", -3}, {"width-1", 25},
                                                             {"width-2", 50}});
  // World coordinates: CAD's y is up, as the world's.
  CHECK(dxf.polylines[0][0] == glm::dvec2(10, 20));

  // Nothing but the file is left in the directory (no scratch, no temporary).
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path),
                      std::filesystem::directory_iterator()) == 1);
  // The same strokes give the same bytes.
  const std::filesystem::path again = dir.path / "again.dxf";
  write_plan_dxf(again, plan_strokes(state, drawing));
  CHECK(read_text(path) == read_text(again));
}

TEST_CASE("DXF lineweights round to the nearest that CAD accepts", "[plan][export]") {
  CHECK(plan_dxf_lineweight(1) == 25);
  CHECK(plan_dxf_lineweight(2) == 50);
  CHECK(plan_dxf_lineweight(1.5f) == 35);  // 37.5 lies nearer 35 than 40
  CHECK(plan_dxf_lineweight(100) == 211);  // the thickest pen
  CHECK(plan_dxf_layer(1.5f) == "width-1.5");
}

TEST_CASE("the PNG inks exactly each segment's stroked rectangle, in ink and paper only",
          "[plan][export]") {
  // One horizontal segment of width 2 and one vertical of width 1 on a 20 x 10 canvas, in world
  // coordinates (y up): on the page (y down) they lie at y = 10 - 4 = 6 and from 6 up to 2.
  const glm::vec2 canvas{20, 10};
  const PlanDrawing drawing = {{{{5, 4}, {15, 4}, 2}, {{15, 4}, {15, 8}, 1}}};
  auto inked = [](int x, int y, int scale, glm::vec2 offset) {
    // Page rectangles, lower edges in, upper out: [4, 16) x [5, 7) and [14.5, 15.5) x
    // [1.5, 6.5), whose pixel centres at scale 1 are columns 4..15 of rows 5..6, and column 14
    // (centre 14.5) of rows 2..6 (centres 2.5 .. 6.5 - 1).
    const float cx = (static_cast<float>(x) + 0.5f - offset.x) / static_cast<float>(scale);
    const float cy = (static_cast<float>(y) + 0.5f - offset.y) / static_cast<float>(scale);
    const bool horizontal = cx >= 4 && cx < 16 && cy >= 5 && cy < 7;
    const bool vertical = cx >= 14.5f && cx < 15.5f && cy >= 1.5f && cy < 6.5f;
    return horizontal || vertical;
  };
  struct Case {
    int width, height, scale;
    glm::vec2 offset;
  };
  // The canvas's own size; twice it; and a wider image, where the canvas is centred.
  for (const Case c : {Case{20, 10, 1, {0, 0}}, Case{40, 20, 2, {0, 0}}, Case{30, 10, 1, {5, 0}}}) {
    INFO("image " << c.width << "x" << c.height);
    const RgbaImage image = plan_image(canvas, drawing, c.width, c.height);
    REQUIRE(image.width == c.width);
    REQUIRE(image.pixels.size() == static_cast<std::size_t>(c.width * c.height * 4));
    int mismatches = 0, ink = 0;
    for (int y = 0; y < c.height; ++y) {
      for (int x = 0; x < c.width; ++x) {
        const std::uint8_t* pixel = &image.pixels[(y * c.width + x) * 4];
        const glm::u8vec4 colour(pixel[0], pixel[1], pixel[2], pixel[3]);
        const bool want_ink = inked(x, y, c.scale, c.offset);
        if (colour != (want_ink ? kPlanInk : kPlanPaper)) ++mismatches;
        ink += want_ink;
      }
    }
    CHECK(ink > 0);
    CHECK(mismatches == 0);
  }
}

TEST_CASE("a stroke thinner than a pixel still inks one pixel across", "[plan][export]") {
  // A 100-unit canvas at 10 pixels: width 1 scales to 0.1 pixel, drawn as 1. World y = 55 is
  // page y = 45, pixel y = 4.5: row 4 alone.
  const PlanDrawing drawing = {{{{0, 55}, {100, 55}, 1}}};
  const RgbaImage image = plan_image({100, 100}, drawing, 10, 10);
  std::vector<int> ink_rows;
  for (int y = 0; y < 10; ++y) {
    if (image.pixels[y * 10 * 4] == kPlanInk.r) ink_rows.push_back(y);
  }
  CHECK(ink_rows == std::vector<int>{4});
}

TEST_CASE("the CSV has a row per point the step saved, with the agent's turns and life",
          "[plan][export]") {
  PlanState state = hand_made_state();
  PlanCsv csv;
  auto point = [](glm::vec2 raw, glm::vec2 drawn, std::uint32_t agent, std::uint32_t step) {
    PlanPoint p{};
    p.raw = raw;
    p.drawn = drawn;
    p.agent = agent;
    p.step = step;
    return p;
  };
  state.points = {point({1.5f, 2}, {1.5f, 0}, 0, 1), point({3, 4.25f}, {0, 4.25f}, 1, 1)};
  csv.add_step(state, 0);
  state.agents[0].turns = 3;
  state.agents[2].parent = 7;  // a branch of agent 7 (docs/model.md, "Branching")
  state.points.push_back(point({0.1f, -2}, {0.1f, 0}, 0, 2));
  state.points.push_back(point({1.5f, 8}, {0, 8}, 2, 2));
  csv.add_step(state, 2);
  CHECK(csv.text() ==
        "agent,step,x,y,drawn_x,drawn_y,turns,alive,parent\n"
        "7,1,1.5,2,1.5,0,2,1,\n"
        "3,1,3,4.25,0,4.25,0,0,\n"
        "7,2,0.100000001,-2,0.100000001,0,3,1,\n"
        "5,2,1.5,8,0,8,0,1,7\n");
}

TEST_CASE("a run of origin 003's plan exports SVG and DXF that read back to plan_drawing",
          "[plan][export]") {
  const PlanScenario scenario = load_plan_scenario(MURMUR_SOURCE_DIR "/scenarios/floor-plan.toml");
  PlanState state = plan_start(scenario, scenario.world.seed);
  constexpr int kSteps = 150;  // past the warm-up, with deaths and turns
  for (int step = 0; step < kSteps; ++step) plan_step(scenario, state);
  const PlanDrawing drawing = plan_drawing(scenario, state);
  const std::vector<ReadSegment> expected = test::drawing_segments(state, drawing);
  REQUIRE(expected.size() > 100);
  const std::vector<PlanStroke> strokes = plan_strokes(state, drawing);

  const test::SvgPlan svg = test::read_svg(plan_svg(scenario.size(), strokes));
  CHECK(svg.segments == expected);

  const test::ScratchDir dir("plan_run_dxf");
  write_plan_dxf(dir.path / "plan.dxf", strokes);
  CHECK(test::dxf_segments(test::read_dxf(dir.path / "plan.dxf")) == without_agents(expected));
}

TEST_CASE("the output format comes from the extension, in any case", "[plan][export]") {
  CHECK(plan_format_of("a/plan.svg") == PlanFormat::Svg);
  CHECK(plan_format_of("plan.DXF") == PlanFormat::Dxf);
  CHECK(plan_format_of("plan.png") == PlanFormat::Png);
  CHECK(plan_format_of("plan.csv") == PlanFormat::Csv);
  CHECK_FALSE(plan_format_of("plan.pdf"));
  CHECK_FALSE(plan_format_of("plan"));
}
