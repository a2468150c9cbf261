// PATHFINDER: dynamic programming over a rows x cols grid of weights: the
// cheapest path from the top row to each cell of the bottom row, moving one
// row down and at most one column sideways per step:
//   cost(r, c) = wall(r, c) + min(cost(r-1, c-1), cost(r-1, c),
//                                 cost(r-1, c+1)).
// Row by row, the columns of a row in parallel, two row buffers.
#include "common.h"

#ifndef ROWS
#define ROWS 256
#endif
#ifndef COLS
#define COLS (1 << 18)
#endif

int main() {
  const int rows = ROWS, cols = COLS;
  std::vector<int> wall = makeWall(rows, cols), bufA(cols), bufB(cols);
  int *out = nullptr;
  timeIt([&] {
    int *prev = bufA.data(), *cur = bufB.data();
    std::copy(wall.begin(), wall.begin() + cols, prev);
#pragma omp parallel
    for (int r = 1; r < rows; ++r) {
      const int *w = &wall[(size_t)r * cols];
#pragma omp for schedule(static)
      for (int c = 0; c < cols; ++c) {
        int best = prev[c];
        if (c > 0)
          best = std::min(best, prev[c - 1]);
        if (c < cols - 1)
          best = std::min(best, prev[c + 1]);
        cur[c] = best + w[c];
      }
#pragma omp single
      std::swap(prev, cur);
    }
    out = prev;
  });
  std::vector<int> result(out, out + cols);
  printChecksum(intChecksum(result));
  return 0;
}
