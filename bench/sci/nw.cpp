// NW: Needleman-Wunsch global alignment score matrix of two sequences of
// length n (linear gap penalty):
//   F[i][j] = max(F[i-1][j-1] + sim(a[i], b[j]), F[i-1][j] - gap,
//                 F[i][j-1] - gap),   F[i][0] = -i gap, F[0][j] = -j gap.
// Blocked wavefront: 64x64 blocks, the blocks of one anti-diagonal in
// parallel, each block row by row.
#include "common.h"

#ifndef LENGTH
#define LENGTH 6144
#endif
#define BLK 64
#define GAP 10

int main() {
  const int n = LENGTH, blocks = (n + BLK - 1) / BLK;
  std::vector<int> a, b, sim;
  makeSequences(n, a, b, sim);
  const size_t w = n + 1;
  std::vector<int> F(w * w), F0(w * w);
  for (size_t i = 0; i <= (size_t)n; ++i) {
    F0[i * w] = -(int)i * GAP;
    F0[i] = -(int)i * GAP;
  }
  timeIt([&] { F = F0; },
         [&] {
           int *f = F.data();
#pragma omp parallel
           for (int d = 0; d < 2 * blocks - 1; ++d) {
             int biMin = std::max(0, d - blocks + 1),
                 biMax = std::min(d, blocks - 1);
#pragma omp for schedule(dynamic)
             for (int bi = biMin; bi <= biMax; ++bi) {
               int bj = d - bi;
               int iEnd = std::min(n, (bi + 1) * BLK),
                   jEnd = std::min(n, (bj + 1) * BLK);
               for (int i = bi * BLK + 1; i <= iEnd; ++i) {
                 int *row = f + (size_t)i * w, *up = row - w;
                 const int *s = &sim[a[i - 1] * kNwLetters];
                 for (int j = bj * BLK + 1; j <= jEnd; ++j)
                   row[j] = std::max(up[j - 1] + s[b[j - 1]],
                                     std::max(up[j], row[j - 1]) - GAP);
               }
             }
           }
         });
  printChecksum(intChecksum(F));
  return 0;
}
