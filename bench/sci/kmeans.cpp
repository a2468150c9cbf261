// KMEANS: Lloyd's algorithm, a fixed number of iterations, on n points of d
// integer-valued features and k clusters (initial centroids: the first k
// points). Each iteration the points are assigned to their nearest centroid
// in parallel, each thread summing its points into its own cluster sums
// (OpenMP array reductions); the new centroids are the sums over the counts.
#include "common.h"

#ifndef POINTS
#define POINTS 262144
#endif
#ifndef DIMS
#define DIMS 16
#endif
#ifndef CLUSTERS
#define CLUSTERS 16
#endif
#ifndef ITERS
#define ITERS 6
#endif

int main() {
  const int n = POINTS;
  std::vector<float> points = makePoints(n, DIMS, CLUSTERS);
  std::vector<float> centroids(CLUSTERS * DIMS);
  std::vector<int> membership(n);
  unsigned long long sums[CLUSTERS * DIMS];
  unsigned counts[CLUSTERS];
  timeIt([&] {
    std::copy(points.begin(), points.begin() + CLUSTERS * DIMS,
              centroids.begin());
    for (int it = 0; it < ITERS; ++it) {
      std::fill(sums, sums + CLUSTERS * DIMS, 0ull);
      std::fill(counts, counts + CLUSTERS, 0u);
      const float *c = centroids.data();
#pragma omp parallel for reduction(+ : sums[:CLUSTERS * DIMS],               \
                                       counts[:CLUSTERS]) schedule(static)
      for (int i = 0; i < n; ++i) {
        const float *p = &points[(size_t)i * DIMS];
        int best = 0;
        float bestDist = 3.0e38f;
        for (int k = 0; k < CLUSTERS; ++k) {
          float dist = 0.0f;
          for (int f = 0; f < DIMS; ++f) {
            float diff = p[f] - c[k * DIMS + f];
            dist += diff * diff;
          }
          if (dist < bestDist) {
            bestDist = dist;
            best = k;
          }
        }
        membership[i] = best;
        counts[best]++;
        for (int f = 0; f < DIMS; ++f)
          sums[best * DIMS + f] += (unsigned long long)p[f];
      }
      for (int k = 0; k < CLUSTERS; ++k)
        if (counts[k])
          for (int f = 0; f < DIMS; ++f)
            centroids[k * DIMS + f] =
                (float)((double)sums[k * DIMS + f] / counts[k]);
    }
  });
  double sum = checksum(centroids);
  for (int k = 0; k < CLUSTERS; ++k)
    sum += (double)counts[k] * (k + 1) * 1e-3;
  printChecksum(sum);
  return 0;
}
