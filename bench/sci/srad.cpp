// SRAD: speckle-reducing anisotropic diffusion of an ultrasound-like image
// (Yu and Acton). Each iteration: the image's mean and variance (a parallel
// reduction in double) give the speckle scale q0^2; a first sweep computes
// each pixel's diffusion coefficient from its four differences, a second
// sweep recomputes the differences and applies the divergence update into a
// second image (the coefficients of the south and east neighbours are
// needed, hence two sweeps). Neighbours beyond the image are the pixel
// itself.
#include "common.h"

#ifndef ROWS
#define ROWS 2048
#endif
#ifndef COLS
#define COLS 2048
#endif
#ifndef ITERS
#define ITERS 6
#endif
#define LAMBDA 0.5f

int main() {
  const int rows = ROWS, cols = COLS;
  const size_t n = (size_t)rows * cols;
  std::vector<float> img = makeImage(rows, cols), J(n), Jn(n), C(n);
  float *result = nullptr;
  timeIt([&] { J = img; },
         [&] {
           float *cur = J.data(), *next = Jn.data(), *c = C.data();
           for (int it = 0; it < ITERS; ++it) {
             double s1 = 0.0, s2 = 0.0;
#pragma omp parallel for reduction(+ : s1, s2) schedule(static)
             for (size_t k = 0; k < n; ++k) {
               double v = cur[k];
               s1 += v;
               s2 += v * v;
             }
             double mean = s1 / n, var = s2 / n - mean * mean;
             const float q0sq = (float)(var / (mean * mean));
#pragma omp parallel for schedule(static)
             for (int r = 0; r < rows; ++r) {
               const float *row = cur + (size_t)r * cols;
               const float *up = r > 0 ? row - cols : row;
               const float *down = r < rows - 1 ? row + cols : row;
               for (int col = 0; col < cols; ++col) {
                 float jc = row[col];
                 float dn = up[col] - jc, ds = down[col] - jc;
                 float dw = (col > 0 ? row[col - 1] : jc) - jc;
                 float de = (col < cols - 1 ? row[col + 1] : jc) - jc;
                 float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
                 float l = (dn + ds + dw + de) / jc;
                 float num = 0.5f * g2 - 0.0625f * l * l;
                 float den = 1.0f + 0.25f * l;
                 float qsq = num / (den * den);
                 den = (qsq - q0sq) / (q0sq * (1.0f + q0sq));
                 float cc = 1.0f / (1.0f + den);
                 c[(size_t)r * cols + col] = std::min(1.0f, std::max(0.0f, cc));
               }
             }
#pragma omp parallel for schedule(static)
             for (int r = 0; r < rows; ++r) {
               const float *row = cur + (size_t)r * cols;
               const float *up = r > 0 ? row - cols : row;
               const float *down = r < rows - 1 ? row + cols : row;
               const float *cr = c + (size_t)r * cols;
               const float *cdown = r < rows - 1 ? cr + cols : cr;
               float *out = next + (size_t)r * cols;
               for (int col = 0; col < cols; ++col) {
                 float jc = row[col];
                 float dn = up[col] - jc, ds = down[col] - jc;
                 float dw = (col > 0 ? row[col - 1] : jc) - jc;
                 float de = (col < cols - 1 ? row[col + 1] : jc) - jc;
                 float ce = col < cols - 1 ? cr[col + 1] : cr[col];
                 float d =
                     cr[col] * dn + cdown[col] * ds + cr[col] * dw + ce * de;
                 out[col] = jc + 0.25f * LAMBDA * d;
               }
             }
             std::swap(cur, next);
           }
           result = cur;
         });
  std::vector<float> out(result, result + n);
  printChecksum(checksum(out));
  return 0;
}
