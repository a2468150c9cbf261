// CORR: the correlation matrix of m variables over n observations (see
// corr.cu): means, deviations, centring and scaling, then the upper
// triangle of the correlation matrix, each loop over variables or rows in
// parallel as written.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 512
#endif

int main() {
  const int m = SIZE, n = SIZE;
  const std::vector<float> data0 = makeUniform<float>((size_t)n * m, 431, 1.0);
  std::vector<float> data, mean(m), dev(m), corr((size_t)m * m);
  timeIt(
      [&] {
        data = data0;
        std::fill(corr.begin(), corr.end(), 0.0f);
      },
      [&] {
        float *d = data.data(), *c = corr.data();
#pragma omp parallel for schedule(static)
        for (int j = 0; j < m; ++j) {
          float sum = 0.0f;
          for (int i = 0; i < n; ++i)
            sum += d[i * m + j];
          mean[j] = sum / n;
        }
#pragma omp parallel for schedule(static)
        for (int j = 0; j < m; ++j) {
          float sum = 0.0f;
          for (int i = 0; i < n; ++i) {
            float e = d[i * m + j] - mean[j];
            sum += e * e;
          }
          float s = sqrtf(sum / n);
          dev[j] = s <= 0.005f ? 1.0f : s;
        }
#pragma omp parallel for schedule(static)
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < m; ++j)
            d[i * m + j] = (d[i * m + j] - mean[j]) / (sqrtf((float)n) * dev[j]);
#pragma omp parallel for schedule(static)
        for (int j1 = 0; j1 < m - 1; ++j1) {
          c[j1 * m + j1] = 1.0f;
          for (int j2 = j1 + 1; j2 < m; ++j2) {
            float sum = 0.0f;
            for (int i = 0; i < n; ++i)
              sum += d[i * m + j1] * d[i * m + j2];
            c[j1 * m + j2] = sum;
            c[j2 * m + j1] = sum;
          }
        }
      });
  corr[(size_t)(m - 1) * m + (m - 1)] = 1.0f;
  printChecksum(checksum(corr));
  return 0;
}
