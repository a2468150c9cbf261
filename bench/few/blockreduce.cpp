// The sum of squares of N integers, as a CPU programmer writes it.
#include "common.h"
#include <vector>

#ifndef N
#define N (1 << 24)
#endif

int main() {
  const long n = N;
  std::vector<int> values(n);
  for (long i = 0; i < n; ++i)
    values[i] = int((i * 7919 + 13) % 1000);
  long long result = 0;
  timeIt("blockreduce", 10, [&] {
    long long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (long i = 0; i < n; ++i)
      sum += (long long)values[i] * values[i];
    result = sum;
  });
  std::printf("checksum=%.3f\n", (double)result);
  return 0;
}
