// Shared by the CUDA and OpenMP versions of each workload of the `sci`
// suite: the same deterministic inputs, checksums and the timing lines.
// Plain C++; the few functions marked BENCH_HD are also callable from
// device code (the CUDA files use everything else in host code only).
#ifndef RESPEC_BENCH_SCI_COMMON_H
#define RESPEC_BENCH_SCI_COMMON_H

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#ifdef __CUDACC__
#define BENCH_HD __host__ __device__
#else
#define BENCH_HD
#endif

// Timed repetitions after the warm-up; the median is printed.
#ifndef REPS
#define REPS 3
#endif

/// 64 well-mixed bits for index `i` of input stream `stream` (the
/// splitmix64 finalizer of the pair).
BENCH_HD static inline uint64_t benchHash(uint64_t stream, uint64_t i) {
  uint64_t z = i * 0x9e3779b97f4a7c15ull + stream * 0xbf58476d1ce4e5b9ull +
               0x632be59bd9b4e5f5ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A deterministic value in [-1, 1).
BENCH_HD static inline double benchUniform(uint64_t stream, uint64_t i) {
  return (double)(benchHash(stream, i) >> 11) * (2.0 / 9007199254740992.0) -
         1.0;
}

/// An integer in [0, n).
BENCH_HD static inline uint32_t benchInt(uint64_t stream, uint64_t i,
                                         uint32_t n) {
  return (uint32_t)((benchHash(stream, i) >> 32) % n);
}

/// An approximately standard normal value (sum of four uniforms in [-1, 1),
/// scaled to unit variance): exact and identical in host and device code.
BENCH_HD static inline double benchNormal(uint64_t stream, uint64_t i) {
  double s = benchUniform(stream, 4 * i) + benchUniform(stream, 4 * i + 1) +
             benchUniform(stream, 4 * i + 2) + benchUniform(stream, 4 * i + 3);
  return s * 0.8660254037844386; // sqrt(3) / 2: each uniform has variance 1/3
}

/// `n` values `scale * benchUniform(stream, i)`.
template <typename T>
static std::vector<T> makeUniform(size_t n, uint64_t stream, double scale) {
  std::vector<T> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = (T)(scale * benchUniform(stream, i));
  return x;
}

/// Sum of the values in double, positive values weighted 1.5 and negative
/// ones 0.5, so that the sum never cancels and a sign error still shows.
template <typename T> static double checksum(const T *x, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum += std::fabs((double)x[i]) + 0.5 * (double)x[i];
  return sum;
}
template <typename T> static double checksum(const std::vector<T> &x) {
  return checksum(x.data(), x.size());
}

/// Sum of integer values weighted by (i % 7) + 1 (exact below 2^53).
template <typename T> static double intChecksum(const T *x, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum += (double)x[i] * (double)((i % 7) + 1);
  return sum;
}
template <typename T> static double intChecksum(const std::vector<T> &x) {
  return intChecksum(x.data(), x.size());
}

/// Runs `setup` and then `body` once to warm up, then REPS times more;
/// prints the median time of `body` in milliseconds as `ms=<float>`.
/// `setup` (resetting the inputs that the computation overwrites) is not
/// timed.
template <typename S, typename F> static void timeIt(S setup, F body) {
  std::vector<double> ms;
  for (int r = 0; r <= REPS; ++r) {
    setup();
    auto start = std::chrono::steady_clock::now();
    body();
    double t = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - start)
                   .count();
    if (r > 0)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("ms=%.3f\n", ms[ms.size() / 2]);
}
template <typename F> static void timeIt(F body) {
  timeIt([] {}, body);
}

static inline void printChecksum(double sum) {
  std::printf("checksum=%.9e\n", sum);
}

// ---------------------------------------------------------------------------
// Inputs, one generator per workload (host code).

/// NN: a batch of `batch` input vectors of `in` values in [-1, 1), weights
/// (out x in, row-major) in [-1/sqrt(in), 1/sqrt(in)), biases and targets
/// in [0, 1).
static inline void makeLayer(int batch, int in, int out, std::vector<float> &x,
                             std::vector<float> &w, std::vector<float> &b,
                             std::vector<float> &t) {
  x = makeUniform<float>((size_t)batch * in, 101, 1.0);
  w = makeUniform<float>((size_t)out * in, 102, 1.0 / std::sqrt((double)in));
  b = makeUniform<float>(out, 103, 0.5);
  t.resize((size_t)batch * out);
  for (size_t i = 0; i < t.size(); ++i)
    t[i] = (float)(0.5 + 0.5 * benchUniform(104, i));
}

/// HOTSPOT: temperatures around 320 K and power in [0, 1e-3) per cell of an
/// n x n chip, with a few hot spots.
static inline void makeChip(int n, std::vector<float> &temp,
                            std::vector<float> &power) {
  temp.resize((size_t)n * n);
  power.resize((size_t)n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      size_t k = (size_t)i * n + j;
      temp[k] = (float)(323.0 + 2.0 * benchUniform(111, k));
      double p = 0.5e-3 * (1.0 + benchUniform(112, k));
      if ((i / 64 + j / 64) % 5 == 0)
        p *= 4; // hot blocks
      power[k] = (float)p;
    }
}

/// PATHFINDER: rows x cols weights in [0, 10).
static inline std::vector<int> makeWall(int rows, int cols) {
  std::vector<int> w((size_t)rows * cols);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = (int)benchInt(121, i, 10);
  return w;
}

/// LUD: an n x n row-major matrix, diagonally dominant (diagonal in
/// [n/4, n/4 + 2), the rest in [-1, 1)), so LU without pivoting is stable.
static inline std::vector<float> makeLudMatrix(int n) {
  std::vector<float> a((size_t)n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      size_t k = (size_t)i * n + j;
      double h = benchUniform(131, k);
      a[k] = (float)(i == j ? n / 4.0 + 1.0 + h : h);
    }
  return a;
}

/// NW: two sequences over an alphabet of 24 letters and a symmetric
/// similarity table (24 x 24) in [-4, 11], BLOSUM-like: positive on the
/// diagonal.
static const int kNwLetters = 24;
static inline void makeSequences(int n, std::vector<int> &a,
                                 std::vector<int> &b, std::vector<int> &sim) {
  a.resize(n);
  b.resize(n);
  for (int i = 0; i < n; ++i) {
    a[i] = (int)benchInt(141, i, kNwLetters);
    // b is a mutated copy of a, so that the alignment is non-trivial
    b[i] = benchInt(142, i, 4) == 0 ? (int)benchInt(143, i, kNwLetters) : a[i];
  }
  sim.resize(kNwLetters * kNwLetters);
  for (int i = 0; i < kNwLetters; ++i)
    for (int j = 0; j <= i; ++j) {
      int v = i == j ? 4 + (int)benchInt(144, i, 8)
                     : -4 + (int)benchInt(145, i * kNwLetters + j, 6);
      sim[i * kNwLetters + j] = sim[j * kNwLetters + i] = v;
    }
}

/// SRAD: an rows x cols ultrasound-like image in (0, 1]: smooth bright and
/// dark regions with multiplicative speckle.
static inline std::vector<float> makeImage(int rows, int cols) {
  std::vector<float> img((size_t)rows * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      size_t k = (size_t)i * cols + j;
      double base = ((i / 128 + j / 128) % 3 + 1) / 3.0;
      double speckle = 1.0 + 0.3 * benchUniform(151, k);
      img[k] = (float)(0.9 * base * speckle * 0.8 + 0.05);
    }
  return img;
}

/// KMEANS: n points of d integer-valued features in [0, 255] around k
/// hidden centres.
static inline std::vector<float> makePoints(int n, int d, int k) {
  std::vector<float> p((size_t)n * d);
  for (int i = 0; i < n; ++i) {
    int c = (int)benchInt(161, i, k);
    for (int f = 0; f < d; ++f) {
      double centre = 30 + 195 * (0.5 + 0.5 * benchUniform(162, c * d + f));
      double v = centre + 25 * benchNormal(163, (size_t)i * d + f);
      p[(size_t)i * d + f] =
          (float)std::min(255.0, std::max(0.0, std::floor(v)));
    }
  }
  return p;
}

/// BFS: a random directed graph in CSR form: node i has 1 + (i % 11)
/// out-edges (average 6): one to node (i + 1) % n (so every node is
/// reachable from 0) and the others to random nodes, mostly nearby (within
/// 4096, like a mesh with some long-range links).
static inline void makeGraph(int n, std::vector<int> &offsets,
                             std::vector<int> &edges) {
  offsets.resize(n + 1);
  offsets[0] = 0;
  for (int i = 0; i < n; ++i)
    offsets[i + 1] = offsets[i] + 1 + i % 11;
  edges.resize(offsets[n]);
  for (int i = 0; i < n; ++i) {
    int e = offsets[i];
    edges[e] = (i + 1) % n;
    for (int k = e + 1; k < offsets[i + 1]; ++k) {
      if (benchInt(171, k, 8) == 0)
        edges[k] = (int)benchInt(172, k, n);
      else
        edges[k] =
            (int)((((long)i + benchInt(173, k, 8192) - 4096) % n + n) % n);
    }
  }
}

/// PARTICLEFILTER: the true trajectory of the tracked object at frame t and
/// the noisy observation of it (identical in host and device code).
BENCH_HD static inline void pfTruth(int t, double &x, double &y) {
  x = 100.0 + 2.0 * t;
  y = 120.0 + 1.5 * t + 0.05 * t * t;
}
static inline void pfObservation(int t, double &x, double &y) {
  pfTruth(t, x, y);
  x += 0.5 * benchNormal(181, 2 * t);
  y += 0.5 * benchNormal(181, 2 * t + 1);
}

/// NBODY: n bodies, positions in [-10, 10)^3, velocities in [-0.1, 0.1)^3,
/// masses in [0.5, 1.5), as separate arrays.
static inline void makeBodies(int n, std::vector<float> &x,
                              std::vector<float> &y, std::vector<float> &z,
                              std::vector<float> &vx, std::vector<float> &vy,
                              std::vector<float> &vz, std::vector<float> &m) {
  x = makeUniform<float>(n, 191, 10);
  y = makeUniform<float>(n, 192, 10);
  z = makeUniform<float>(n, 193, 10);
  vx = makeUniform<float>(n, 194, 0.1);
  vy = makeUniform<float>(n, 195, 0.1);
  vz = makeUniform<float>(n, 196, 0.1);
  m.resize(n);
  for (int i = 0; i < n; ++i)
    m[i] = (float)(1.0 + 0.5 * benchUniform(197, i));
}

/// GEMM: entries k/16 for integers k in [-16, 16], so that every product
/// and every partial sum of a dot product of length <= 2^14 is exact in
/// float, whatever the order of summation.
static inline std::vector<float> makeGemmMatrix(size_t n, uint64_t stream) {
  std::vector<float> a(n);
  for (size_t i = 0; i < n; ++i)
    a[i] = (float)((int)benchInt(stream, i, 33) - 16) / 16.0f;
  return a;
}

/// HISTOGRAM: n 8-bit pixel values, a sum of two uniforms plus a spike
/// (many equal values, so that the atomics on that bin contend).
static inline std::vector<unsigned char> makePixels(size_t n) {
  std::vector<unsigned char> p(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t h = benchHash(211, i);
    unsigned v = (unsigned)((h & 0xff) + ((h >> 8) & 0xff)) / 2;
    if (((h >> 16) & 7) == 0)
      v = 200;
    p[i] = (unsigned char)v;
  }
  return p;
}

#endif
