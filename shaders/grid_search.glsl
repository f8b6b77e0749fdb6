// The cells a search around a boid visits on the grid (steer_grid.comp, catch.comp).

// The distinct cell columns (or rows) an observer at `own` searches: own-1..own+1, wrapped on
// a torus. A grid of fewer than 3 cells is searched whole so no cell is visited twice.
void neighbour_span(int own, int cells, bool wrap, out int first, out int count) {
  if (cells < 3) {
    first = 0;
    count = cells;
  } else if (wrap) {
    first = own - 1;
    count = 3;
  } else {
    first = max(own - 1, 0);
    count = min(own + 1, cells - 1) - first + 1;
  }
}
