// Block-wise sum, as a CPU programmer writes it.
#include "common.h"
#include <vector>

int main() {
  const long n = 1L << 24, block = 256, blocks = n / block;
  std::vector<float> in(n), out(blocks);
  for (long i = 0; i < n; ++i)
    in[i] = benchInput(i);
  timeIt("reduce", 10, [&] {
#pragma omp parallel for
    for (long b = 0; b < blocks; ++b) {
      float sum = 0;
      for (long t = 0; t < block; ++t)
        sum += in[b * block + t];
      out[b] = sum;
    }
  });
  std::printf("checksum=%.3f\n", checksum(out.data(), blocks));
  return 0;
}
