// CONV2D: a 3x3 convolution of an n x n image (see conv2d.cu), rows in
// parallel, the border left as it is.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 4096
#endif

int main() {
  const int n = SIZE;
  std::vector<float> in = makeUniform<float>((size_t)n * n, 401, 1.0);
  std::vector<float> out((size_t)n * n, 0.0f);
  const float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  const float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  const float c13 = +0.4f, c23 = +0.7f, c33 = +0.1f;
  timeIt([&] {
    const float *a = in.data();
    float *b = out.data();
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        b[i * n + j] =
            c11 * a[(i - 1) * n + (j - 1)] + c21 * a[(i - 1) * n + j] +
            c31 * a[(i - 1) * n + (j + 1)] + c12 * a[i * n + (j - 1)] +
            c22 * a[i * n + j] + c32 * a[i * n + (j + 1)] +
            c13 * a[(i + 1) * n + (j - 1)] + c23 * a[(i + 1) * n + j] +
            c33 * a[(i + 1) * n + (j + 1)];
  });
  printChecksum(checksum(out));
  return 0;
}
