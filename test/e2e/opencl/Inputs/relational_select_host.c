// Host of relational_select.cl: expected values from OpenCL C 1.2, 6.12.6.
#include <respec/opencl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSPECIAL 12
#define N (NSPECIAL * NSPECIAL) // every pair; a multiple of 2, 3, 4 and 16

static unsigned long long seed = 99;
static uint64_t random_bits(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return seed ^ (seed >> 31);
}

static int failures;
static void set_arg(respec_cl_kernel *kernel, unsigned i, const void *p) {
  respec_cl_set_kernel_arg(kernel, i, sizeof(p), &p);
}

// Runs kernel `name` with arguments (a, b, [c,] out) over `items`.
static void launch(const char *name, size_t items, void *a, void *b, void *c,
                   void *out, int *bad) {
  respec_cl_kernel *kernel = respec_cl_create_kernel(name, NULL);
  set_arg(kernel, 0, a);
  set_arg(kernel, 1, b);
  unsigned next = 2;
  if (c)
    set_arg(kernel, next++, c);
  set_arg(kernel, next, out);
  *bad |= respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
}

//===--- Relational functions ----------------------------------------------===//

static const char *const names[13] = {
    "isnan",     "isinf",     "isfinite",       "isnormal", "signbit",
    "isequal",   "isnotequal", "isgreater",     "isgreaterequal",
    "isless",    "islessequal", "isordered",    "isunordered"};

// Scalars return 1 for true, vectors -1; I is the result's element type.
#define DEFINE_RELATIONAL(T, I, MAX, MIN, DENORM)                              \
  static int relational_##T##_##I(const char *label, int width) {             \
    const T special[NSPECIAL] = {0.0,  -0.0,    1.0,    -1.0,                  \
                                 INFINITY, -INFINITY, NAN, MIN,                \
                                 DENORM, -(MAX),  -2.5,  1e-30};               \
    T x[N], y[N];                                                              \
    I out[13 * N];                                                             \
    for (int e = 0; e < N; ++e)                                                \
      x[e] = special[e % NSPECIAL], y[e] = special[e / NSPECIAL];              \
    memset(out, 0x55, sizeof out);                                             \
    char name[32];                                                             \
    snprintf(name, sizeof name, "relational_%s", label);                       \
    int bad = 0;                                                               \
    launch(name, N / width, x, y, NULL, out, &bad);                            \
    I t = width == 1 ? 1 : -1;                                                 \
    for (int e = 0; e < N; ++e) {                                              \
      T a = x[e], b = y[e];                                                    \
      int truth[13] = {isnan(a),     isinf(a),        isfinite(a),            \
                       isnormal(a),  signbit(a) != 0, a == b,                  \
                       a != b,       isgreater(a, b), isgreaterequal(a, b),    \
                       isless(a, b), islessequal(a, b),                        \
                       !isunordered(a, b), isunordered(a, b)};                 \
      for (int f = 0; f < 13; ++f) {                                           \
        I expected = truth[f] ? t : 0;                                         \
        if (out[f * N + e] != expected) {                                      \
          if (++failures <= 20)                                                \
            printf("  %s %s(%a, %a): got %lld, expected %lld\n", label,        \
                   names[f], (double)a, (double)b,                             \
                   (long long)out[f * N + e], (long long)expected);            \
          bad = 1;                                                             \
        }                                                                      \
      }                                                                        \
    }                                                                          \
    printf("relational %s: %s\n", label, bad ? "FAILED" : "ok");               \
    return bad;                                                                \
  }
DEFINE_RELATIONAL(float, int32_t, FLT_MAX, FLT_MIN, 0x1p-149f)
DEFINE_RELATIONAL(double, int32_t, DBL_MAX, DBL_MIN, 0x1p-1074)
DEFINE_RELATIONAL(double, int64_t, DBL_MAX, DBL_MIN, 0x1p-1074)

//===--- select and bitselect ----------------------------------------------===//

// T: the element type, C: the type of c (same size), U: the unsigned integer
// type of that size. Scalar select picks b where c != 0, vector select where
// the most significant bit of c is set; bitselect picks each bit.
#define SELECT_N 48
#define DEFINE_SELECT(T, C, U)                                                 \
  static int select_##T##_##C(const char *label, const char *kernel_name,     \
                              int width) {                                     \
    T a[SELECT_N], b[SELECT_N], out[2 * SELECT_N];                             \
    C c[SELECT_N];                                                             \
    const int bits = 8 * sizeof(U);                                            \
    const U msb = (U)((U)1 << (bits - 1));                                     \
    const U cs[6] = {0, 1, (U)~(U)0, msb, (U)~msb, (U)(msb | 1)};              \
    for (int e = 0; e < SELECT_N; ++e) {                                       \
      U ua = (U)random_bits(), ub = (U)random_bits();                          \
      U uc = e < 36 ? cs[e % 6] : (U)random_bits();                           \
      memcpy(&a[e], &ua, sizeof ua);                                           \
      memcpy(&b[e], &ub, sizeof ub);                                           \
      memcpy(&c[e], &uc, sizeof uc);                                           \
    }                                                                          \
    memset(out, 0, sizeof out);                                                \
    int bad = 0;                                                               \
    launch(kernel_name, SELECT_N / width, a, b, c, out, &bad);                 \
    for (int e = 0; e < SELECT_N; ++e) {                                       \
      U ua, ub, uc, got_select, got_bits;                                      \
      memcpy(&ua, &a[e], sizeof ua);                                           \
      memcpy(&ub, &b[e], sizeof ub);                                           \
      memcpy(&uc, &c[e], sizeof uc);                                           \
      memcpy(&got_select, &out[e], sizeof ua);                                 \
      memcpy(&got_bits, &out[SELECT_N + e], sizeof ua);                        \
      int pick_b = width == 1 ? uc != 0 : (uc & msb) != 0;                     \
      U expected_select = pick_b ? ub : ua;                                    \
      U expected_bits = (U)((ua & (U)~uc) | (ub & uc));                        \
      if (got_select != expected_select || got_bits != expected_bits) {        \
        if (++failures <= 20)                                                  \
          printf("  %s [%d] c=%#llx: select %#llx (expected %#llx), "          \
                 "bitselect %#llx (expected %#llx)\n",                         \
                 label, e, (unsigned long long)uc,                             \
                 (unsigned long long)got_select,                               \
                 (unsigned long long)expected_select,                          \
                 (unsigned long long)got_bits,                                 \
                 (unsigned long long)expected_bits);                           \
        bad = 1;                                                               \
      }                                                                        \
    }                                                                          \
    printf("select %s: %s\n", label, bad ? "FAILED" : "ok");                   \
    return bad;                                                                \
  }
DEFINE_SELECT(int8_t, uint8_t, uint8_t)
DEFINE_SELECT(uint8_t, uint8_t, uint8_t)
DEFINE_SELECT(int16_t, int16_t, uint16_t)
DEFINE_SELECT(int32_t, int32_t, uint32_t)
DEFINE_SELECT(int32_t, uint32_t, uint32_t)
DEFINE_SELECT(uint64_t, uint64_t, uint64_t)
DEFINE_SELECT(int64_t, uint64_t, uint64_t)
DEFINE_SELECT(float, int32_t, uint32_t)
DEFINE_SELECT(float, uint32_t, uint32_t)
DEFINE_SELECT(double, int64_t, uint64_t)

//===--- any and all -------------------------------------------------------===//

#define ITEMS 12
static int any_all(void) {
  unsigned char bits[16 * ITEMS];
  int out[26 * ITEMS];
  for (int i = 0; i < 16 * ITEMS; ++i)
    bits[i] = (unsigned char)random_bits();
  memset(bits, 0x7f, 16);       // no sign bit anywhere
  memset(bits + 16, 0x80, 16);  // every sign bit
  memset(bits + 32, 0xff, 16);  // every bit
  memset(bits + 48, 0x00, 16);  // no bit
  bits[48 + 15] = 0x80;         // only the last element's sign bit
  memset(bits + 64, 0x80, 16);
  bits[64 + 3] = 0x7f;          // every sign bit but the first int's
  memset(out, 0x55, sizeof out);
  int bad = 0;
  respec_cl_kernel *kernel = respec_cl_create_kernel("any_all", NULL);
  set_arg(kernel, 0, bits);
  set_arg(kernel, 1, out);
  size_t items = ITEMS;
  bad |= respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned char *p = bits + 16 * i; // little-endian elements
    int expected[26];
    // Vectors of 16 chars, 8 shorts, 4 ints, 2 longs, then int3: the sign
    // bit of an element of s bytes is the top bit of its last byte.
    const int sizes[4] = {1, 2, 4, 8};
    for (int v = 0; v < 5; ++v) {
      int size = v < 4 ? sizes[v] : 4, count = v < 4 ? 16 / size : 3;
      int any = 0, all = 1;
      for (int e = 0; e < count; ++e) {
        int sign = p[e * size + size - 1] >> 7;
        any |= sign;
        all &= sign;
      }
      expected[2 * v] = any, expected[2 * v + 1] = all;
    }
    for (int e = 0; e < 4; ++e) // scalar ints
      expected[10 + 2 * e] = expected[11 + 2 * e] = p[4 * e + 3] >> 7;
    for (int e = 0; e < 2; ++e) // scalar longs
      expected[18 + 2 * e] = expected[19 + 2 * e] = p[8 * e + 7] >> 7;
    expected[22] = expected[23] = p[0] >> 7;  // char c.s0
    expected[24] = expected[25] = p[15] >> 7; // short s.s7
    for (int f = 0; f < 26; ++f)
      if (out[26 * i + f] != expected[f]) {
        if (++failures <= 20)
          printf("  any/all item %d result %d: got %d, expected %d\n", i, f,
                 out[26 * i + f], expected[f]);
        bad = 1;
      }
  }
  printf("any all: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

int main(void) {
  int bad = 0;
  bad |= relational_float_int32_t("float", 1);
  bad |= relational_float_int32_t("float3", 3);
  bad |= relational_float_int32_t("float4", 4);
  bad |= relational_float_int32_t("float16", 16);
  bad |= relational_double_int32_t("double", 1);
  bad |= relational_double_int64_t("double2", 2);
  bad |= relational_double_int64_t("double3", 3);
  bad |= select_int8_t_uint8_t("char16 uchar16", "select_char16_uchar16", 16);
  bad |= select_int16_t_int16_t("short8 short8", "select_short8_short8", 8);
  bad |= select_int32_t_int32_t("int int", "select_int_int", 1);
  bad |= select_uint8_t_uint8_t("uchar uchar", "select_uchar_uchar", 1);
  bad |= select_int32_t_int32_t("int4 int4", "select_int4_int4", 4);
  bad |= select_int32_t_uint32_t("int4 uint4", "select_int4_uint4", 4);
  bad |= select_uint64_t_uint64_t("ulong ulong", "select_ulong_ulong", 1);
  bad |= select_int64_t_uint64_t("long2 ulong2", "select_long2_ulong2", 2);
  bad |= select_float_int32_t("float int", "select_float_int", 1);
  bad |= select_float_int32_t("float4 int4", "select_float4_int4", 4);
  bad |= select_float_uint32_t("float3 uint3", "select_float3_uint3", 3);
  bad |= select_double_int64_t("double long", "select_double_long", 1);
  bad |= select_double_int64_t("double2 long2", "select_double2_long2", 2);
  bad |= any_all();
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
