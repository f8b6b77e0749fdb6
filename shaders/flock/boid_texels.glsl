// Boids read through buffer-texture views (docs/gpu.md, "Texel fetches"): the same bytes as
// the storage buffers, fetched as RG32UI texels, MURMUR_BOID_TEXELS to a boid. On llvmpipe a
// texel fetch is a branch-free gather of all lanes; a storage-buffer load is a scalar loop over
// the lanes with a bounds branch per lane and component, which made it most of the cost of the
// grid passes. GpuFlock binds the views; a pass's storage writes reach them through
// GL_TEXTURE_FETCH_BARRIER_BIT.
#include "common/common.glsl"

layout(binding = MURMUR_TEX_SORTED) uniform usamplerBuffer sorted_texels;
layout(binding = MURMUR_TEX_CANDIDATES) uniform usamplerBuffer candidate_texels;

#ifdef MURMUR_3D
const uint boid_texels = MURMUR_BOID_3D_TEXELS;
#else
const uint boid_texels = MURMUR_BOID_TEXELS;
#endif

uvec2 boid_texel(usamplerBuffer view, uint slot, uint texel) {
  return texelFetch(view, int(slot * boid_texels + texel)).xy;
}

vec2 boid_texel_vec2(usamplerBuffer view, uint slot, uint texel) {
  return uintBitsToFloat(boid_texel(view, slot, texel));
}

// The whole record at `slot`.
Boid boid_at(usamplerBuffer view, uint slot) {
  uvec2 id_species = boid_texel(view, slot, MURMUR_BOID_TEXEL_ID_SPECIES);
  uvec2 age_slot = boid_texel(view, slot, MURMUR_BOID_TEXEL_AGE_SLOT);
  uvec2 energy_fate = boid_texel(view, slot, MURMUR_BOID_TEXEL_ENERGY_FATE);
  return Boid(boid_texel_vec2(view, slot, MURMUR_BOID_TEXEL_POS),
              boid_texel_vec2(view, slot, MURMUR_BOID_TEXEL_VEL), id_species.x, id_species.y,
              age_slot.x, age_slot.y, uintBitsToFloat(energy_fate.x), energy_fate.y
#ifdef MURMUR_3D
              , boid_texel_vec2(view, slot, MURMUR_BOID_TEXEL_DEPTH).x,
              boid_texel_vec2(view, slot, MURMUR_BOID_TEXEL_DEPTH).y
#endif
              );
}
