// HISTOGRAM of 8-bit pixels into 256 bins: each thread counts its part of
// the input into its own histogram (an OpenMP array reduction), which
// OpenMP sums at the end.
#include "common.h"

#ifndef PIXELS
#define PIXELS (64 << 20)
#endif
#define BINS 256

int main() {
  const size_t n = PIXELS;
  std::vector<unsigned char> pixels = makePixels(n);
  std::vector<unsigned> hist(BINS);
  timeIt([&] {
    unsigned h[BINS] = {0};
    const unsigned char *p = pixels.data();
#pragma omp parallel for reduction(+ : h[:BINS]) schedule(static)
    for (size_t i = 0; i < n; ++i)
      h[p[i]]++;
    std::copy(h, h + BINS, hist.begin());
  });
  printChecksum(intChecksum(hist));
  return 0;
}
