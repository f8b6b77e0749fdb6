// A topological boid's nearest candidates so far (docs/model.md, "Topological neighbours";
// docs/gpu.md, "Topological neighbours"), for the steering passes compiled with
// MURMUR_TOPOLOGICAL: at most MURMUR_MAX_TOPOLOGICAL_K of them, ranked first to last by
// ranks_nearer (model.glsl, included before this file). The CPU reference's list is the k-d
// tree's heap (KdTree2D::query_nearest).
//
// Per-invocation globals rather than a struct handed to each call: GLSL passes `inout` by
// copy, and the list is three arrays.
float nearest_dist_sq[MURMUR_MAX_TOPOLOGICAL_K];
uint nearest_id[MURMUR_MAX_TOPOLOGICAL_K];
uint nearest_slot[MURMUR_MAX_TOPOLOGICAL_K];
uint nearest_count;

// Whether a candidate at dist_sq could still enter a list that keeps `limit`: not when the list
// is full and the last kept is nearer (its id is then not needed to decide).
bool could_be_kept(uint limit, float dist_sq) {
  return nearest_count < limit || !(dist_sq > nearest_dist_sq[limit - 1u]);
}

// Keeps the candidate at sorted slot `slot` if it ranks among the `limit` first met so far:
// an insertion into the ranked list, the last one dropped when it is full.
void keep_nearest(uint limit, float dist_sq, uint id, uint slot) {
  uint at = nearest_count;
  if (at == limit) {
    if (!ranks_nearer(dist_sq, id, nearest_dist_sq[limit - 1u], nearest_id[limit - 1u])) return;
    at = limit - 1u;
  } else {
    nearest_count += 1u;
  }
  while (at > 0u && ranks_nearer(dist_sq, id, nearest_dist_sq[at - 1u], nearest_id[at - 1u])) {
    nearest_dist_sq[at] = nearest_dist_sq[at - 1u];
    nearest_id[at] = nearest_id[at - 1u];
    nearest_slot[at] = nearest_slot[at - 1u];
    at -= 1u;
  }
  nearest_dist_sq[at] = dist_sq;
  nearest_id[at] = id;
  nearest_slot[at] = slot;
}
