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

// `coordinate` (at most one cell outside [0, cells)) brought back into the grid across the
// seam: a compare and an add, where % would cost an integer division per lane.
int wrapped_cell(int coordinate, int cells) {
  if (coordinate < 0) return coordinate + cells;
  if (coordinate >= cells) return coordinate - cells;
  return coordinate;
}

// A span of columns as runs of consecutive cells, in the order the span visits them: cells of
// one row are consecutive in the sorted state, so each run is one range of slots. A wrapped
// span that crosses the seam is two runs: up to the last column, then on from column 0.
void column_runs(int first, int count, int cells, out int run_first, out int run_count,
                 out int wrapped_count) {
  run_first = wrapped_cell(first, cells);
  int end = run_first + count;
  run_count = min(end, cells) - run_first;
  wrapped_count = max(end - cells, 0);
}
