#include "plan_agents.hpp"

namespace murmur::render {

PlanAgentsPrograms::PlanAgentsPrograms()
    : program(gl::Program::graphics("render/plan_agents.vert", "render/plan_agents.frag",
                                    render_constants())) {}

void draw_plan_agents(const PlanAgentsPrograms& programs, const RenderSettings& settings,
                      const GpuPlanBuffers& plan, const WorldView& view, const RenderTarget& hdr,
                      PassGeometry& geometry) {
  const PlanStyle& style = settings.plan;
  gl::DrawState state = hdr.whole();
  state.scissor = world_scissor(view);
  if (!style.agents || plan.agent_count == 0 || !state.scissor) return;
  state.blend = mark_blend(settings.blend);
  const bool on_paper = settings.blend == BlendMode::Ink;
  programs.view.set(view);
  programs.marker_pixels.set(style.agent_marker_pixels);
  programs.colour.set(glm::vec4(on_paper ? style.agent_ink : style.agent_glow, 1.0f));
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the plan's passes wrote the agents
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, MURMUR_BIND_RENDER_PLAN_AGENTS, plan.agents);
  gl::apply(state);
  programs.program.use();
  geometry.draw_quads(static_cast<std::uint32_t>(plan.agent_count));
}

}  // namespace murmur::render
