// Host of integer_builtins.cl: every result is recomputed in 128-bit
// arithmetic from the definitions of OpenCL C 1.2, 6.12.3.
#include <respec/opencl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 96 // a multiple of every vector width used (2, 3, 4, 8, 16)
#define NSPECIAL 8

typedef __int128 wide;

static unsigned long long seed = 77;
static uint64_t random_bits(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return seed ^ (seed >> 29);
}

static int failures;
static void set_arg(respec_cl_kernel *kernel, unsigned i, const void *p) {
  respec_cl_set_kernel_arg(kernel, i, sizeof(p), &p);
}

static wide clampw(wide v, wide lo, wide hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

#define NFUNCS 14
static const char *const names[NFUNCS] = {
    "abs",      "abs_diff", "add_sat",     "sub_sat",     "hadd",
    "rhadd",    "popcount", "rotate",      "max",         "min",
    "clamp",    "max(scalar)", "min(scalar)", "clamp(scalar bounds)"};

// The integer kernels for a scalar type T (U: its unsigned type).
#define DEFINE_INT(T, U, BITS, MIN, MAX)                                       \
  static int int_##T(const char *kernel_name, const char *label, int width) { \
    const T special[NSPECIAL] = {                                              \
        (T)(MIN), (T)((MIN) + 1), (T)((MIN) == 0 ? 2 : -1), 0, 1,              \
        (T)((MAX) - 1), (T)(MAX), (T)((MAX) / 2 + 1)};                         \
    T x[N], y[N], z[N], out[NFUNCS * N];                                           \
    for (int e = 0; e < N; ++e) {                                              \
      if (e < NSPECIAL * NSPECIAL) { /* every pair of edge values */          \
        x[e] = special[e % NSPECIAL];                                          \
        y[e] = special[e / NSPECIAL];                                          \
      } else {                                                                 \
        x[e] = (T)random_bits();                                               \
        y[e] = (T)random_bits();                                               \
      }                                                                        \
      z[e] = (e % 3) ? (T)random_bits() : special[(e * 5) % NSPECIAL];         \
    }                                                                          \
    T s = (T)((MAX) / 3), t = (T)((MIN) == 0 ? 5 : (MIN) / 5);                 \
    memset(out, 0, sizeof out);                                                \
    respec_cl_kernel *kernel = respec_cl_create_kernel(kernel_name, NULL);     \
    set_arg(kernel, 0, x);                                                     \
    set_arg(kernel, 1, y);                                                     \
    set_arg(kernel, 2, z);                                                     \
    respec_cl_set_kernel_arg(kernel, 3, sizeof s, &s);                         \
    respec_cl_set_kernel_arg(kernel, 4, sizeof t, &t);                         \
    set_arg(kernel, 5, out);                                                   \
    size_t items = N / width;                                                  \
    int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;   \
    respec_cl_release_kernel(kernel);                                          \
    for (int e = 0; e < N; ++e) {                                              \
      wide a = x[e], b = y[e], c = z[e];                                       \
      wide low = b < c ? b : c, high = b < c ? c : b;                          \
      wide slo = s < t ? s : t, shi = s < t ? t : s;                           \
      U ua = (U)x[e];                                                          \
      int pop = 0;                                                             \
      for (int bit = 0; bit < BITS; ++bit)                                     \
        pop += (ua >> bit) & 1;                                                \
      unsigned r = (unsigned)((U)y[e] & (BITS - 1));                           \
      U rot = r ? (U)((ua << r) | (ua >> (BITS - r))) : ua;                    \
      wide sum = a + b, diff = a - b;                                          \
      T expected[NFUNCS] = {                                                       \
          (T)(U)(a < 0 ? -a : a),                                              \
          (T)(U)(a > b ? a - b : b - a),                                       \
          (T)clampw(sum, MIN, MAX),                                            \
          (T)clampw(diff, MIN, MAX),                                           \
          (T)(sum >> 1), /* floor: an arithmetic shift of the exact sum */     \
          (T)((sum + 1) >> 1),                                                 \
          (T)pop,                                                              \
          (T)rot,                                                              \
          (T)(a > b ? a : b),                                                  \
          (T)(a < b ? a : b),                                                  \
          (T)clampw(a, low, high),                                             \
          (T)(a > s ? a : (wide)s),                                            \
          (T)(a < s ? a : (wide)s),                                            \
          (T)clampw(a, slo, shi)};                                             \
      for (int f = 0; f < NFUNCS; ++f)                                         \
        if (out[f * N + e] != expected[f]) {                                   \
          if (++failures <= 20)                                                \
            printf("  %s %s(%lld, %lld) [%d]: got %lld, expected %lld\n",      \
                   label, names[f], (long long)x[e], (long long)y[e], e,       \
                   (long long)out[f * N + e], (long long)expected[f]);         \
          bad = 1;                                                             \
        }                                                                      \
    }                                                                          \
    printf("%s: %s\n", label, bad ? "FAILED" : "ok");                          \
    return bad;                                                                \
  }
DEFINE_INT(int8_t, uint8_t, 8, INT8_MIN, INT8_MAX)
DEFINE_INT(uint8_t, uint8_t, 8, 0, UINT8_MAX)
DEFINE_INT(int16_t, uint16_t, 16, INT16_MIN, INT16_MAX)
DEFINE_INT(uint16_t, uint16_t, 16, 0, UINT16_MAX)
DEFINE_INT(int32_t, uint32_t, 32, INT32_MIN, INT32_MAX)
DEFINE_INT(uint32_t, uint32_t, 32, 0, UINT32_MAX)
DEFINE_INT(int64_t, uint64_t, 64, INT64_MIN, INT64_MAX)
DEFINE_INT(uint64_t, uint64_t, 64, 0, UINT64_MAX)

// mul_hi, mad_hi (and mul24, mad24 for 32-bit types) for a scalar type T.
#define DEFINE_MUL(T, BITS, MIN, MAX, HAS24)                                   \
  static int mul_##T(const char *kernel_name, const char *label, int width) { \
    const T special[NSPECIAL] = {                                              \
        (T)(MIN), (T)((MIN) + 1), (T)((MIN) == 0 ? 2 : -1), 0, 1,              \
        (T)((MAX) - 1), (T)(MAX), (T)((MAX) / 2 + 1)};                         \
    T x[N], y[N], z[N], out[4 * N];                                            \
    for (int e = 0; e < N; ++e) {                                              \
      x[e] = e < 64 ? special[e % NSPECIAL] : (T)random_bits();                \
      y[e] = e < 64 ? special[e / NSPECIAL] : (T)random_bits();                \
      z[e] = (T)random_bits();                                                 \
    }                                                                          \
    memset(out, 0, sizeof out);                                                \
    respec_cl_kernel *kernel = respec_cl_create_kernel(kernel_name, NULL);     \
    set_arg(kernel, 0, x);                                                     \
    set_arg(kernel, 1, y);                                                     \
    set_arg(kernel, 2, z);                                                     \
    set_arg(kernel, 3, out);                                                   \
    size_t items = N / width;                                                  \
    int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;   \
    respec_cl_release_kernel(kernel);                                          \
    int is_signed = (T)-1 < 0;                                                 \
    for (int e = 0; e < N; ++e) {                                              \
      wide a = x[e], b = y[e];                                                 \
      T c = is_signed ? (T)(z[e] >> 1) : z[e];                                 \
      T hi = (T)(is_signed ? (a * b) >> BITS                                   \
                           : (wide)(((unsigned __int128)x[e] * y[e]) >> BITS)); \
      T expected[4] = {hi, (T)(hi + c), 0, 0};                                 \
      int count = 2;                                                           \
      if (HAS24) {                                                             \
        /* sign- (zero-) extended low 24 bits, times the low 8 bits */        \
        wide a24 = is_signed ? (wide)(int32_t)((uint32_t)x[e] << 8) >> 8       \
                             : (wide)(x[e] & 0xffffff);                        \
        wide b8 = is_signed ? (wide)(int8_t)y[e] : (wide)(y[e] & 0xff);        \
        T c24 = is_signed ? (T)(z[e] >> 2) : (T)(z[e] >> 1);                   \
        expected[2] = (T)(a24 * b8);                                           \
        expected[3] = (T)(expected[2] + c24);                                  \
        count = 4;                                                             \
      }                                                                        \
      for (int f = 0; f < count; ++f)                                          \
        if (out[f * N + e] != expected[f]) {                                   \
          static const char *const mul_names[4] = {"mul_hi", "mad_hi",         \
                                                    "mul24", "mad24"};         \
          if (++failures <= 20)                                                \
            printf("  %s %s(%lld, %lld) [%d]: got %lld, expected %lld\n",      \
                   label, mul_names[f], (long long)x[e], (long long)y[e], e,   \
                   (long long)out[f * N + e], (long long)expected[f]);         \
          bad = 1;                                                             \
        }                                                                      \
    }                                                                          \
    printf("mul %s: %s\n", label, bad ? "FAILED" : "ok");                      \
    return bad;                                                                \
  }
DEFINE_MUL(int32_t, 32, INT32_MIN, INT32_MAX, 1)
DEFINE_MUL(uint32_t, 32, 0, UINT32_MAX, 1)
DEFINE_MUL(int64_t, 64, INT64_MIN, INT64_MAX, 0)
DEFINE_MUL(uint64_t, 64, 0, UINT64_MAX, 0)

// upsample(hi, lo) = ((wider)hi << bits of lo) | lo, of each pair of types.
static int upsample_all(void) {
  uint64_t hi[N], lo[N];
  int64_t out[6 * N];
  for (int e = 0; e < N; ++e) {
    hi[e] = e < 8 ? 0xffffffffffffffffull >> (e * 8) : random_bits();
    lo[e] = e < 8 ? 0x8080808080808080ull >> e : random_bits();
  }
  memset(out, 0, sizeof out);
  respec_cl_kernel *kernel = respec_cl_create_kernel("upsample_all", NULL);
  set_arg(kernel, 0, hi);
  set_arg(kernel, 1, lo);
  set_arg(kernel, 2, out);
  size_t items = N;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int e = 0; e < N; ++e) {
    uint64_t h = hi[e], l = lo[e];
    int64_t expected[6] = {
        (int16_t)(uint16_t)((uint16_t)(h & 0xff) << 8 | (l & 0xff)),
        (uint16_t)((h & 0xff) << 8 | (l & 0xff)),
        (int32_t)(uint32_t)((uint32_t)(h & 0xffff) << 16 | (l & 0xffff)),
        (uint32_t)((h & 0xffff) << 16 | (l & 0xffff)),
        (int64_t)((h & 0xffffffff) << 32 | (l & 0xffffffff)),
        (int64_t)((h & 0xffffffff) << 32 | (l & 0xffffffff))};
    for (int f = 0; f < 6; ++f)
      if (out[6 * e + f] != expected[f]) {
        if (++failures <= 20)
          printf("  upsample %d (%#llx, %#llx): got %#llx, expected %#llx\n", f,
                 (unsigned long long)h, (unsigned long long)l,
                 (unsigned long long)out[6 * e + f],
                 (unsigned long long)expected[f]);
        bad = 1;
      }
  }
  printf("upsample: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

int main(void) {
  int bad = 0;
  bad |= int_int8_t("int_char", "char", 1);
  bad |= int_int8_t("int_char16", "char16", 16);
  bad |= int_uint8_t("int_uchar", "uchar", 1);
  bad |= int_uint8_t("int_uchar3", "uchar3", 3);
  bad |= int_int16_t("int_short", "short", 1);
  bad |= int_int16_t("int_short8", "short8", 8);
  bad |= int_uint16_t("int_ushort", "ushort", 1);
  bad |= int_uint16_t("int_ushort2", "ushort2", 2);
  bad |= int_int32_t("int_int", "int", 1);
  bad |= int_int32_t("int_int4", "int4", 4);
  bad |= int_uint32_t("int_uint", "uint", 1);
  bad |= int_uint32_t("int_uint8", "uint8", 8);
  bad |= int_int64_t("int_long", "long", 1);
  bad |= int_int64_t("int_long2", "long2", 2);
  bad |= int_uint64_t("int_ulong", "ulong", 1);
  bad |= int_uint64_t("int_ulong4", "ulong4", 4);
  bad |= mul_int32_t("mul_int", "int", 1);
  bad |= mul_int32_t("mul_int4", "int4", 4);
  bad |= mul_uint32_t("mul_uint", "uint", 1);
  bad |= mul_uint32_t("mul_uint16", "uint16", 16);
  bad |= mul_int64_t("mul_long", "long", 1);
  bad |= mul_int64_t("mul_long2", "long2", 2);
  bad |= mul_uint64_t("mul_ulong", "ulong", 1);
  bad |= mul_uint64_t("mul_ulong3", "ulong3", 3);
  bad |= upsample_all();
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
