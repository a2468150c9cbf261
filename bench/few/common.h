// Shared by the CUDA and OpenMP versions of each few-block workload: the
// same deterministic inputs, a checksum of the output and one timing line.
#ifndef RESPEC_BENCH_FEW_COMMON_H
#define RESPEC_BENCH_FEW_COMMON_H

#include <chrono>
#include <cstdio>

static inline float benchInput(long i) {
  return (float)((i * 7919 + 13) % 1000) * 0.001f;
}

static inline double checksum(const float *x, long n) {
  double sum = 0;
  for (long i = 0; i < n; ++i)
    sum += x[i] * (double)((i % 7) + 1);
  return sum;
}

/// Runs `body` once to warm up, then `reps` times; prints the mean time of
/// one run in milliseconds.
template <typename F> static void timeIt(const char *name, int reps, F body) {
  body();
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    body();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count() /
              reps;
  std::printf("%s ms=%.3f\n", name, ms);
}

#endif
