// The floor-plan generator's agent and point records, shared by its passes
// (plan_buffers.glsl) and the renderer's plan passes, which read them where the passes left
// them. C++ mirrors in src/plan/gpu/gpu_plan.cpp, whose static_asserts keep the layouts together.

// PlanAgent (include/murmur/plan/plan.hpp) with its 64-bit died_at as two words, and `moved`: 1 when
// the agent was alive at the start of the step, so that it moves and saves a point.
struct PlanAgentRecord {
  vec2 location;
  vec2 velocity;
  vec2 acceleration;
  vec2 last_move;
  vec2 drawn;
  uint id;
  uint turns;
  uint steps;
  uint death;
  uvec2 died_at;  // low word, high word
  uint alive;
  uint moved;
  vec2 origin;  // a child's first drawn point, on its parent's line (docs/model.md, "Branching")
  uint parent;  // MURMUR_PLAN_NONE for the start's agents
  uint born;    // the step of its birth (0 at the start)
};

// PlanPoint, byte for byte.
struct PlanPointRecord {
  vec2 raw;
  vec2 drawn;
  vec2 move;
  uint agent;
  uint step;
};
