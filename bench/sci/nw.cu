// NW: Needleman-Wunsch global alignment score matrix of two sequences of
// length n (linear gap penalty, similarity table in constant memory):
//   F[i][j] = max(F[i-1][j-1] + sim(a[i], b[j]), F[i-1][j] - gap,
//                 F[i][j-1] - gap),   F[i][0] = -i gap, F[0][j] = -j gap.
// The (n+1) x (n+1) matrix is computed in 16x16 tiles, one launch per
// anti-diagonal of tiles (the tiles of a diagonal are independent). A block
// stages its tile, the row above and the column left of it in shared
// memory and sweeps the tile's 31 anti-diagonals, a barrier after each.
#include "common.h"
#include <cuda_runtime.h>

#ifndef LENGTH
#define LENGTH 6144
#endif
#define TILE 16
#define GAP 10

__constant__ int cSim[kNwLetters * kNwLetters];

// Tile (ti, tj) of diagonal d = ti + tj, ti = tiMin + blockIdx.x.
__global__ void nwDiagonal(int *F, const int *a, const int *b, int n, int d,
                           int tiMin) {
  __shared__ int s[TILE + 1][TILE + 1];
  __shared__ int sa[TILE], sb[TILE];
  int t = threadIdx.x;
  int ti = tiMin + blockIdx.x, tj = d - ti;
  int i0 = ti * TILE, j0 = tj * TILE; // F row/column before the tile
  size_t w = n + 1;
  s[0][t + 1] = F[(size_t)i0 * w + j0 + 1 + t];
  s[t + 1][0] = F[(size_t)(i0 + 1 + t) * w + j0];
  if (t == 0)
    s[0][0] = F[(size_t)i0 * w + j0];
  sa[t] = a[i0 + t];
  sb[t] = b[j0 + t];
  __syncthreads();
  // Anti-diagonal k of the tile: thread t computes cell (t, k - t).
  for (int k = 0; k < 2 * TILE - 1; ++k) {
    int j = k - t;
    if (j >= 0 && j < TILE) {
      int diag = s[t][j] + cSim[sa[t] * kNwLetters + sb[j]];
      int up = s[t][j + 1] - GAP, left = s[t + 1][j] - GAP;
      s[t + 1][j + 1] = max(diag, max(up, left));
    }
    __syncthreads();
  }
  for (int r = 0; r < TILE; ++r)
    F[(size_t)(i0 + 1 + r) * w + j0 + 1 + t] = s[r + 1][t + 1];
}

int main() {
  const int n = LENGTH, tiles = n / TILE;
  std::vector<int> a, b, sim;
  makeSequences(n, a, b, sim);
  const size_t w = n + 1;
  std::vector<int> F(w * w);
  for (size_t i = 0; i <= (size_t)n; ++i) {
    F[i * w] = -(int)i * GAP;
    F[i] = -(int)i * GAP;
  }
  int *dF, *dA, *dB;
  cudaMalloc(&dF, F.size() * sizeof(int));
  cudaMalloc(&dA, n * sizeof(int));
  cudaMalloc(&dB, n * sizeof(int));
  cudaMemcpy(dA, a.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(cSim, sim.data(), sim.size() * sizeof(int));
  timeIt(
      [&] {
        cudaMemcpy(dF, F.data(), F.size() * sizeof(int),
                   cudaMemcpyHostToDevice);
      },
      [&] {
        for (int d = 0; d < 2 * tiles - 1; ++d) {
          int tiMin = std::max(0, d - tiles + 1),
              tiMax = std::min(d, tiles - 1);
          nwDiagonal<<<tiMax - tiMin + 1, TILE>>>(dF, dA, dB, n, d, tiMin);
        }
        cudaDeviceSynchronize();
      });
  cudaMemcpy(F.data(), dF, F.size() * sizeof(int), cudaMemcpyDeviceToHost);
  printChecksum(intChecksum(F));
  cudaFree(dF);
  cudaFree(dA);
  cudaFree(dB);
  return 0;
}
