#include "food.hpp"

namespace murmur::render {
namespace {
constexpr GLsizei kBoxVertices = 6;  // two triangles, see shaders/render/food_boxes.vert
}  // namespace

FoodPrograms::FoodPrograms()
    : program(gl::Program::graphics("render/food_boxes.vert", "render/trail_ribbon.frag",
                                    render_constants())) {}

void draw_food(const FoodPrograms& programs, const FoodBufferView& food,
               const RenderSettings& settings, const WorldView& view, const RenderTarget& hdr,
               const PassGeometry& geometry) {
  const FoodSettings& style = settings.food;
  const std::uint32_t cells = food.grid.cell_count();
  if (!style.enabled || food.buffer == 0 || cells == 0 || !(food.max_per_cell > 0)) return;
  gl::DrawState state = hdr.whole();
  state.scissor = world_scissor(view);  // the last row and column may reach past the world
  if (!state.scissor) return;
  state.blend = mark_blend(settings.blend);
  programs.view.set(view);
  programs.columns.set(static_cast<std::uint32_t>(food.grid.cells.x));
  programs.cell_size.set(glm::vec2(food.grid.cell_size));  // the field is the plane's
  programs.max_per_cell.set(food.max_per_cell);
  programs.full_box_fraction.set(style.full_box_fraction);
  programs.colour.set(style.colour);
  // The simulation's grazing wrote the field: the frame's load_live_count made it visible.
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_FOOD, food.buffer);
  gl::apply(state);
  geometry.bind_empty();
  programs.program.use();
  glDrawArrays(GL_TRIANGLES, 0, kBoxVertices * static_cast<GLsizei>(cells));
}

}  // namespace murmur::render
