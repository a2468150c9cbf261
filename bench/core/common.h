// Shared by the CUDA (register-cache) and C++ (OpenMP) versions of each
// kernel of the `core` suite: build-time configuration, the same
// deterministic inputs, a checksum of the outputs and the timing lines.
// Plain C++: the CUDA files use it in host code only.
#ifndef RESPEC_BENCH_CORE_COMMON_H
#define RESPEC_BENCH_CORE_COMMON_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

// Scalar type of the kernel: -DREAL=float or -DREAL=double.
#ifndef REAL
#define REAL float
#endif
typedef REAL Real;

// Threads per problem (the register-cache group): 4, 8, 16 or 32. Each
// kernel file sets its own default before including this header.
#ifndef GROUP
#define GROUP 16
#endif
static_assert(GROUP == 4 || GROUP == 8 || GROUP == 16 || GROUP == 32,
              "GROUP must be 4, 8, 16 or 32");

// Number of independent problems.
#ifndef BATCH
#define BATCH 100000
#endif

// Timed launches after the warm-up; the median is printed.
#ifndef REPS
#define REPS 3
#endif

/// A deterministic value in [-1, 1) for index `i` of input stream `stream`
/// (the splitmix64 finalizer of the pair).
static inline double benchUniform(uint64_t stream, uint64_t i) {
  uint64_t z = i * 0x9e3779b97f4a7c15ull + stream * 0xbf58476d1ce4e5b9ull +
               0x632be59bd9b4e5f5ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/// `n` values `scale * benchUniform(stream, i)`.
template <typename T>
static std::vector<T> makeUniform(size_t n, uint64_t stream, double scale) {
  std::vector<T> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = (T)(scale * benchUniform(stream, i));
  return x;
}

// Inputs of the kernels. Matrices of one problem are G x G and contiguous;
// problem p starts at p * G * G.

/// GEMA, GEMM: entries in [-1, 1).
template <typename T>
static std::vector<T> makeMatrices(int G, uint64_t stream) {
  return makeUniform<T>((size_t)BATCH * G * G, stream, 1);
}

/// TRSV: the L and U factors of one matrix, column-major (element (i, j) at
/// j * G + i): unit lower L below the diagonal (entries in [-1/G, 1/G)), U on
/// and above it (diagonal in [G, G + 2), the rest in [-1, 1)), so both
/// solves are well conditioned.
template <typename T> static std::vector<T> makeTrsvFactors(int G) {
  std::vector<T> m((size_t)BATCH * G * G);
  for (size_t p = 0; p < (size_t)BATCH; ++p)
    for (int j = 0; j < G; ++j)
      for (int i = 0; i < G; ++i) {
        size_t k = p * G * G + j * G + i;
        double h = benchUniform(3, k);
        m[k] = (T)(i > j ? h / G : i == j ? G + 1 + h : h);
      }
  return m;
}

/// LDUS: column-major matrices, diagonally dominant (diagonal in
/// [G, G + 2), the rest in [-1, 1)), so no pivoting is needed.
template <typename T> static std::vector<T> makeDominant(int G) {
  std::vector<T> m((size_t)BATCH * G * G);
  for (size_t p = 0; p < (size_t)BATCH; ++p)
    for (int j = 0; j < G; ++j)
      for (int i = 0; i < G; ++i) {
        size_t k = p * G * G + j * G + i;
        double h = benchUniform(5, k);
        m[k] = (T)(i == j ? G + 1 + h : h);
      }
  return m;
}

/// ENUM: problem p is the record of `enumRecord(vars, cons)` values at
/// p * record: objective c (vars), constraint matrix A (cons x vars,
/// row-major), bounds b (cons). Small integers: c and A in [1, 20], b half
/// of A's row sum, so that x = 0 is feasible and all sums are exact.
static inline int enumRecord(int vars, int cons) {
  return vars + cons * vars + cons;
}
template <typename T>
static std::vector<T> makeKnapsacks(int vars, int cons) {
  int record = enumRecord(vars, cons);
  std::vector<T> r((size_t)BATCH * record);
  for (size_t p = 0; p < (size_t)BATCH; ++p) {
    T *q = &r[p * record];
    for (int k = 0; k < vars + cons * vars; ++k)
      q[k] = (T)(1 + (int)(10 * (benchUniform(7, p * record + k) + 1)));
    for (int i = 0; i < cons; ++i) {
      int row = 0;
      for (int j = 0; j < vars; ++j)
        row += (int)q[vars + i * vars + j];
      q[vars + cons * vars + i] = (T)(row / 2);
    }
  }
  return r;
}

/// PADE: per problem `elems` inputs x in [-2, 2) and upstream gradients dy
/// in [-1, 1) (problem p's at p * elems), `num` numerator coefficients in
/// [-1, 1) and `den` denominator coefficients in [-0.5, 0.5).
template <typename T>
static void makePade(int elems, int num, int den, std::vector<T> &x,
                     std::vector<T> &dy, std::vector<T> &a,
                     std::vector<T> &b) {
  x = makeUniform<T>((size_t)BATCH * elems, 11, 2);
  dy = makeUniform<T>((size_t)BATCH * elems, 12, 1);
  a = makeUniform<T>((size_t)BATCH * num, 13, 1);
  b = makeUniform<T>((size_t)BATCH * den, 14, 0.5);
}

/// FRCG: starting points in [0.7, 1.3)^G around the minimum (1, ..., 1),
/// problem p's at p * G. (From farther away, the float line searches of the
/// two versions take different branches after a few dozen iterations.)
template <typename T> static std::vector<T> makeStarts(int G) {
  std::vector<T> x((size_t)BATCH * G);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = (T)(1 + 0.3 * benchUniform(15, i));
  return x;
}

/// Sum of the outputs in double, positive values weighted 1.5 and negative
/// ones 0.5, so that the sum never cancels and a sign error still shows.
template <typename T> static double checksum(const std::vector<T> &x) {
  double sum = 0;
  for (T v : x)
    sum += std::fabs((double)v) + 0.5 * (double)v;
  return sum;
}

/// Runs `body` once to warm up, then REPS times; prints the median time of
/// one run in milliseconds as `ms=<float>`.
template <typename F> static void timeIt(F body) {
  body();
  std::vector<double> ms;
  for (int r = 0; r < REPS; ++r) {
    auto start = std::chrono::steady_clock::now();
    body();
    ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("ms=%.3f\n", ms[ms.size() / 2]);
}

static inline void printChecksum(double sum) {
  std::printf("checksum=%.9e\n", sum);
}

#endif
