// The agents that moved in the previous step (`listed`, control.listed[(s - 1) & 1] of them in
// step s, by index) and in this one (`movers_out`, control.listed[s & 1]), in two buffers that
// GpuPlan swaps every step. The passes over living agents run over these lists, so that the
// dead, most of a grown plan, leave no invocation idle beside a living one (docs/gpu.md).
// Declared only where used: llvmpipe allows a compute shader 16 storage blocks.
layout(std430, binding = MURMUR_BIND_PLAN_LISTED) buffer PlanListed { uint listed[]; };
layout(std430, binding = MURMUR_BIND_PLAN_MOVERS_OUT) buffer PlanMoversOut { uint movers_out[]; };

// The length of step `step`'s list of movers (any parity of the step's low word).
uint plan_listed_count(uint step) { return control.listed[step & 1u]; }
