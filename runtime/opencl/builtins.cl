//===- builtins.cl - OpenCL C built-in functions for respec ---------------===//
//
// OpenCL C programs call their built-in functions (get_global_id, barrier,
// sqrt, vload4, atomic_add, ...) as ordinary overloaded functions that the
// platform's library defines. This file is respec's library: compiled once,
// at build time, for the same NVPTX flavour of LLVM IR that respec's CUDA
// front end produces, and linked into every OpenCL program before raising.
// Each built-in is therefore written in terms of what respec already
// implements for CUDA: PTX special registers become the launch position,
// __syncthreads a block barrier, `__nv_*` math the CPU math library.
//
// Two functions are left to the compiler: the launch's work dimension and
// global offset are hidden kernel parameters that respec adds to every
// OpenCL kernel (lib/Frontend/OpenCLFrontend.cpp), and
// __respec_work_group_shuffle_* is expanded like a warp shuffle whose
// segment is the whole work-group (ExpandWarpIntrinsics.cpp).
//
// Scope: OpenCL C 1.2 (see docs/user-guide.md, "OpenCL C"). Functions not
// defined here are reported as unsupported at the user's call.
//
//===----------------------------------------------------------------------===//

#define DEF __attribute__((overloadable, always_inline))
#define INLINE static __attribute__((always_inline))

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

//===----------------------------------------------------------------------===//
// Provided by the compiler and the CPU math library
//===----------------------------------------------------------------------===//

uint __respec_cl_work_dim(void) __attribute__((const));
size_t __respec_cl_global_offset(uint dim) __attribute__((const));
uint __respec_work_group_shuffle_i32(uint value, uint lane)
    __attribute__((convergent));
ulong __respec_work_group_shuffle_i64(ulong value, uint lane)
    __attribute__((convergent));

#define DECLARE_NV_UNARY(name)                                                 \
  float __nv_##name##f(float);                                                 \
  double __nv_##name(double);
#define DECLARE_NV_BINARY(name)                                                \
  float __nv_##name##f(float, float);                                          \
  double __nv_##name(double, double);

#define FOR_EACH_NV_UNARY(X)                                                   \
  X(acos) X(acosh) X(asin) X(asinh) X(atan) X(atanh) X(ceil) X(cos)            \
  X(cosh) X(cospi) X(erf) X(erfc) X(exp) X(exp2) X(exp10) X(expm1) X(fabs)     \
  X(floor) X(lgamma) X(log) X(log10) X(log1p) X(log2) X(logb) X(rint)          \
  X(round) X(rsqrt) X(sin) X(sinh) X(sinpi) X(sqrt) X(tan) X(tanh) X(tgamma)   \
  X(trunc)
#define FOR_EACH_NV_BINARY(X)                                                  \
  X(atan2) X(copysign) X(fdim) X(fmax) X(fmin) X(fmod) X(hypot) X(nextafter)   \
  X(pow) X(remainder)

FOR_EACH_NV_UNARY(DECLARE_NV_UNARY)
FOR_EACH_NV_BINARY(DECLARE_NV_BINARY)
float __nv_fmaf(float, float, float);
double __nv_fma(double, double, double);
float __nv_ldexpf(float, int);
double __nv_ldexp(double, int);
int __nv_ilogbf(float);
int __nv_ilogb(double);
float __nv_powif(float, int);
double __nv_powi(double, int);

//===----------------------------------------------------------------------===//
// Work-item functions (OpenCL C 1.2, 6.12.1)
//===----------------------------------------------------------------------===//

INLINE size_t selectDim(uint dim, uint x, uint y, uint z, size_t other) {
  return dim == 0 ? (size_t)x : dim == 1 ? (size_t)y : dim == 2 ? (size_t)z
                                                                 : other;
}

DEF uint get_work_dim(void) { return __respec_cl_work_dim(); }

DEF size_t get_local_id(uint dim) {
  return selectDim(dim, __nvvm_read_ptx_sreg_tid_x(),
                   __nvvm_read_ptx_sreg_tid_y(), __nvvm_read_ptx_sreg_tid_z(),
                   0);
}

DEF size_t get_local_size(uint dim) {
  return selectDim(dim, __nvvm_read_ptx_sreg_ntid_x(),
                   __nvvm_read_ptx_sreg_ntid_y(),
                   __nvvm_read_ptx_sreg_ntid_z(), 1);
}

DEF size_t get_group_id(uint dim) {
  return selectDim(dim, __nvvm_read_ptx_sreg_ctaid_x(),
                   __nvvm_read_ptx_sreg_ctaid_y(),
                   __nvvm_read_ptx_sreg_ctaid_z(), 0);
}

DEF size_t get_num_groups(uint dim) {
  return selectDim(dim, __nvvm_read_ptx_sreg_nctaid_x(),
                   __nvvm_read_ptx_sreg_nctaid_y(),
                   __nvvm_read_ptx_sreg_nctaid_z(), 1);
}

DEF size_t get_global_offset(uint dim) {
  return dim < 3 ? __respec_cl_global_offset(dim) : 0;
}

DEF size_t get_global_size(uint dim) {
  return get_num_groups(dim) * get_local_size(dim);
}

DEF size_t get_global_id(uint dim) {
  return get_global_offset(dim) + get_group_id(dim) * get_local_size(dim) +
         get_local_id(dim);
}

//===----------------------------------------------------------------------===//
// Synchronization (6.12.8, 6.12.9)
//===----------------------------------------------------------------------===//

// A block barrier orders both local and global memory on the CPU, so the
// fence flags need no distinction.
DEF void barrier(cl_mem_fence_flags flags) { __syncthreads(); }
DEF void mem_fence(cl_mem_fence_flags flags) { __nvvm_membar_cta(); }
DEF void read_mem_fence(cl_mem_fence_flags flags) { __nvvm_membar_cta(); }
DEF void write_mem_fence(cl_mem_fence_flags flags) { __nvvm_membar_cta(); }

//===----------------------------------------------------------------------===//
// Vector helpers: apply a scalar built-in element by element
//===----------------------------------------------------------------------===//

#define VEC_UNARY(R, T, N, name)                                               \
  DEF R##N name(T##N x) {                                                      \
    R##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = name(x[i]);                                                       \
    return r;                                                                  \
  }
#define VEC_BINARY(R, T, N, name)                                              \
  DEF R##N name(T##N x, T##N y) {                                              \
    R##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = name(x[i], y[i]);                                                 \
    return r;                                                                  \
  }
#define VEC_TERNARY(R, T, N, name)                                             \
  DEF R##N name(T##N x, T##N y, T##N z) {                                      \
    R##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = name(x[i], y[i], z[i]);                                           \
    return r;                                                                  \
  }
// gentype f(gentype x, scalar y): the scalar applies to every element.
#define VEC_BINARY_SCALAR(R, T, N, S, name)                                    \
  DEF R##N name(T##N x, S y) {                                                 \
    R##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = name(x[i], y);                                                    \
    return r;                                                                  \
  }
#define VEC_BINARY_INT(R, T, N, name)                                          \
  DEF R##N name(T##N x, int##N y) {                                            \
    R##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = name(x[i], y[i]);                                                 \
    return r;                                                                  \
  }

#define ALL_WIDTHS(M, ...)                                                     \
  M(__VA_ARGS__, 2) M(__VA_ARGS__, 3) M(__VA_ARGS__, 4) M(__VA_ARGS__, 8)      \
      M(__VA_ARGS__, 16)

//===----------------------------------------------------------------------===//
// Math functions (6.12.2)
//===----------------------------------------------------------------------===//

#define SCALAR_UNARY_MATH(name)                                                \
  DEF float name(float x) { return __nv_##name##f(x); }                        \
  DEF double name(double x) { return __nv_##name(x); }
#define SCALAR_BINARY_MATH(name)                                               \
  DEF float name(float x, float y) { return __nv_##name##f(x, y); }            \
  DEF double name(double x, double y) { return __nv_##name(x, y); }
FOR_EACH_NV_UNARY(SCALAR_UNARY_MATH)
FOR_EACH_NV_BINARY(SCALAR_BINARY_MATH)

#define UNARY_WIDTH(name, N)                                                   \
  VEC_UNARY(float, float, N, name) VEC_UNARY(double, double, N, name)
#define BINARY_WIDTH(name, N)                                                  \
  VEC_BINARY(float, float, N, name) VEC_BINARY(double, double, N, name)
#define TERNARY_WIDTH(name, N)                                                 \
  VEC_TERNARY(float, float, N, name) VEC_TERNARY(double, double, N, name)
#define VECTOR_UNARY_MATH(name) ALL_WIDTHS(UNARY_WIDTH, name)
#define VECTOR_BINARY_MATH(name) ALL_WIDTHS(BINARY_WIDTH, name)
#define VECTOR_TERNARY_MATH(name) ALL_WIDTHS(TERNARY_WIDTH, name)
FOR_EACH_NV_UNARY(VECTOR_UNARY_MATH)
FOR_EACH_NV_BINARY(VECTOR_BINARY_MATH)

// The C library's double cbrt is off by up to 3.4 ulp; one Newton step
// brings it within OpenCL's 2 ulp. Float is computed in double.
double __nv_cbrt(double);
DEF double cbrt(double x) {
  double y = __nv_cbrt(x);
  if (y == 0.0 || !__builtin_isfinite(y))
    return y;
  return y - __nv_fma(y * y, y, -x) / (3.0 * y * y);
}
DEF float cbrt(float x) { return (float)cbrt((double)x); }
VECTOR_UNARY_MATH(cbrt)

DEF float fma(float x, float y, float z) { return __nv_fmaf(x, y, z); }
DEF double fma(double x, double y, double z) { return __nv_fma(x, y, z); }
VECTOR_TERNARY_MATH(fma)
// mad may be computed with any precision; fma is the most precise choice
// and as fast as a multiply-add on CPUs with FMA.
DEF float mad(float x, float y, float z) { return x * y + z; }
DEF double mad(double x, double y, double z) { return x * y + z; }
VECTOR_TERNARY_MATH(mad)

// powr is pow for x >= 0 only, with its own special cases (OpenCL C 1.2,
// 7.5.1): NaN for x < 0, 0^0, inf^0 and 1^inf.
#define POWR(T)                                                                \
  DEF T powr(T x, T y) {                                                       \
    if (x != x || y != y || x < (T)0)                                          \
      return (T)NAN;                                                           \
    if (x == (T)0)                                                             \
      return y == (T)0 ? (T)NAN : y < (T)0 ? (T)INFINITY : (T)0;               \
    if (__builtin_isinf(x))                                                    \
      return y == (T)0 ? (T)NAN : y < (T)0 ? (T)0 : (T)INFINITY;              \
    if (x == (T)1)                                                             \
      return __builtin_isinf(y) ? (T)NAN : (T)1;                               \
    return pow(x, y);                                                          \
  }
POWR(float)
POWR(double)
VECTOR_BINARY_MATH(powr)
DEF float pown(float x, int n) { return __nv_powif(x, n); }
DEF double pown(double x, int n) { return __nv_powi(x, n); }
DEF float ldexp(float x, int n) { return __nv_ldexpf(x, n); }
DEF double ldexp(double x, int n) { return __nv_ldexp(x, n); }
// rootn(x, n) = x^(1/n), defined for x < 0 when n is odd. 1/n is not
// exact, so pow(|x|, 1/n) is refined by one Newton step (in double for
// float) to keep within the specified 16 ulp for double.
INLINE double rootnMagnitude(double ax, int n) {
  int m = n < 0 ? -n : n;
  double r = __nv_pow(ax, 1.0 / m);
  if (r > 0.0 && !__builtin_isinf(r) && __builtin_isfinite(ax))
    r -= (__nv_powi(r, m) - ax) / (m * __nv_powi(r, m - 1));
  return n < 0 ? 1.0 / r : r;
}
#define ROOTN(T)                                                               \
  DEF T rootn(T x, int n) {                                                    \
    if (n == 0 || x != x || (x < (T)0 && (n & 1) == 0))                        \
      return (T)NAN;                                                           \
    if (x == (T)0) /* +-0: +-inf for n < 0, keeping the sign if n is odd */   \
      return (n & 1) ? (n < 0 ? copysign((T)INFINITY, x) : x)                  \
                     : (n < 0 ? (T)INFINITY : (T)0);                           \
    T magnitude = (T)rootnMagnitude((double)fabs(x), n);                       \
    return x < (T)0 ? -magnitude : magnitude;                                  \
  }
ROOTN(float)
ROOTN(double)
// The OpenCL header's FP_ILOGB0 and FP_ILOGBNAN, which differ from glibc's.
DEF int ilogb(float x) {
  return x != x ? FP_ILOGBNAN : x == 0.0f ? FP_ILOGB0 : __nv_ilogbf(x);
}
DEF int ilogb(double x) {
  return x != x ? FP_ILOGBNAN : x == 0.0 ? FP_ILOGB0 : __nv_ilogb(x);
}
DEF float maxmag(float x, float y) {
  float ax = __nv_fabsf(x), ay = __nv_fabsf(y);
  return ax > ay ? x : ay > ax ? y : __nv_fmaxf(x, y);
}
DEF double maxmag(double x, double y) {
  double ax = __nv_fabs(x), ay = __nv_fabs(y);
  return ax > ay ? x : ay > ax ? y : __nv_fmax(x, y);
}
DEF float minmag(float x, float y) {
  float ax = __nv_fabsf(x), ay = __nv_fabsf(y);
  return ax < ay ? x : ay < ax ? y : __nv_fminf(x, y);
}
DEF double minmag(double x, double y) {
  double ax = __nv_fabs(x), ay = __nv_fabs(y);
  return ax < ay ? x : ay < ax ? y : __nv_fmin(x, y);
}
VECTOR_BINARY_MATH(maxmag)
VECTOR_BINARY_MATH(minmag)

#define POWN_WIDTH(N)                                                          \
  VEC_BINARY_INT(float, float, N, pown) VEC_BINARY_INT(double, double, N, pown) \
  VEC_BINARY_INT(float, float, N, ldexp)                                       \
  VEC_BINARY_INT(double, double, N, ldexp)                                     \
  VEC_BINARY_INT(float, float, N, rootn)                                       \
  VEC_BINARY_INT(double, double, N, rootn)                                     \
  VEC_BINARY_SCALAR(float, float, N, int, ldexp)                               \
  VEC_BINARY_SCALAR(double, double, N, int, ldexp)                             \
  VEC_UNARY(int, float, N, ilogb) VEC_UNARY(int, double, N, ilogb)
POWN_WIDTH(2) POWN_WIDTH(3) POWN_WIDTH(4) POWN_WIDTH(8) POWN_WIDTH(16)

// fmax/fmin with a scalar second operand.
#define FMINMAX_SCALAR(N)                                                      \
  VEC_BINARY_SCALAR(float, float, N, float, fmax)                              \
  VEC_BINARY_SCALAR(float, float, N, float, fmin)                              \
  VEC_BINARY_SCALAR(double, double, N, double, fmax)                           \
  VEC_BINARY_SCALAR(double, double, N, double, fmin)
FMINMAX_SCALAR(2) FMINMAX_SCALAR(3) FMINMAX_SCALAR(4) FMINMAX_SCALAR(8)
FMINMAX_SCALAR(16)

// native_* and half_* trade accuracy for speed; on the CPU the full
// precision functions are the fast ones.
#define NATIVE_UNARY(name)                                                     \
  DEF float native_##name(float x) { return name(x); }                         \
  DEF float half_##name(float x) { return name(x); }                           \
  ALL_WIDTHS(NATIVE_UNARY_WIDTH, name)
#define NATIVE_UNARY_WIDTH(name, N)                                            \
  DEF float##N native_##name(float##N x) { return name(x); }                   \
  DEF float##N half_##name(float##N x) { return name(x); }
NATIVE_UNARY(cos) NATIVE_UNARY(exp) NATIVE_UNARY(exp2) NATIVE_UNARY(exp10)
NATIVE_UNARY(log) NATIVE_UNARY(log2) NATIVE_UNARY(log10) NATIVE_UNARY(rsqrt)
NATIVE_UNARY(sin) NATIVE_UNARY(sqrt) NATIVE_UNARY(tan)
DEF float native_recip(float x) { return 1.0f / x; }
DEF float half_recip(float x) { return 1.0f / x; }
DEF float native_divide(float x, float y) { return x / y; }
DEF float half_divide(float x, float y) { return x / y; }
DEF float native_powr(float x, float y) { return __nv_powf(x, y); }
DEF float half_powr(float x, float y) { return __nv_powf(x, y); }
#define NATIVE_REST_WIDTH(N)                                                   \
  DEF float##N native_recip(float##N x) { return 1.0f / x; }                   \
  DEF float##N half_recip(float##N x) { return 1.0f / x; }                     \
  DEF float##N native_divide(float##N x, float##N y) { return x / y; }         \
  DEF float##N half_divide(float##N x, float##N y) { return x / y; }           \
  VEC_BINARY(float, float, N, native_powr)                                     \
  VEC_BINARY(float, float, N, half_powr)
NATIVE_REST_WIDTH(2) NATIVE_REST_WIDTH(3) NATIVE_REST_WIDTH(4)
NATIVE_REST_WIDTH(8) NATIVE_REST_WIDTH(16)

//===----------------------------------------------------------------------===//
// Common functions (6.12.4)
//===----------------------------------------------------------------------===//

#define COMMON_SCALAR(T)                                                       \
  DEF T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }               \
  DEF T degrees(T r) { return r * (T)(180.0 / M_PI); }                         \
  DEF T radians(T d) { return d * (T)(M_PI / 180.0); }                         \
  DEF T max(T x, T y) { return fmax(x, y); }                                   \
  DEF T min(T x, T y) { return fmin(x, y); }                                   \
  DEF T mix(T x, T y, T a) { return x + (y - x) * a; }                         \
  DEF T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                   \
  DEF T smoothstep(T e0, T e1, T x) {                                          \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                             \
    return t * t * ((T)3 - (T)2 * t);                                          \
  }                                                                            \
  DEF T sign(T x) {                                                            \
    return x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : isnan(x) ? (T)0 : x;           \
  }
COMMON_SCALAR(float)
COMMON_SCALAR(double)

#define COMMON_WIDTH_T(T, N)                                                   \
  VEC_TERNARY(T, T, N, clamp) VEC_UNARY(T, T, N, degrees)                      \
  VEC_UNARY(T, T, N, radians) VEC_BINARY(T, T, N, max)                         \
  VEC_BINARY(T, T, N, min) VEC_TERNARY(T, T, N, mix)                           \
  VEC_BINARY(T, T, N, step) VEC_TERNARY(T, T, N, smoothstep)                   \
  VEC_UNARY(T, T, N, sign) VEC_BINARY_SCALAR(T, T, N, T, max)                  \
  VEC_BINARY_SCALAR(T, T, N, T, min)                                           \
  DEF T##N clamp(T##N x, T lo, T hi) {                                         \
    return clamp(x, (T##N)(lo), (T##N)(hi));                                   \
  }                                                                            \
  DEF T##N mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)(a)); }           \
  DEF T##N step(T edge, T##N x) { return step((T##N)(edge), x); }              \
  DEF T##N smoothstep(T e0, T e1, T##N x) {                                    \
    return smoothstep((T##N)(e0), (T##N)(e1), x);                              \
  }
#define COMMON_WIDTH(N) COMMON_WIDTH_T(float, N) COMMON_WIDTH_T(double, N)

//===----------------------------------------------------------------------===//
// Relational functions (6.12.6); needed by sign above
//===----------------------------------------------------------------------===//

DEF int isnan(float x) { return x != x; }
DEF int isnan(double x) { return x != x; }
DEF int isinf(float x) { return __builtin_isinf(x); }
DEF int isinf(double x) { return __builtin_isinf(x); }
DEF int isfinite(float x) { return __builtin_isfinite(x); }
DEF int isfinite(double x) { return __builtin_isfinite(x); }
DEF int isnormal(float x) { return __builtin_isnormal(x); }
DEF int isnormal(double x) { return __builtin_isnormal(x); }
DEF int signbit(float x) { return __builtin_signbit(x); }
DEF int signbit(double x) { return __builtin_signbit(x); }
DEF int isequal(float x, float y) { return x == y; }
DEF int isequal(double x, double y) { return x == y; }
DEF int isnotequal(float x, float y) { return x != y; }
DEF int isnotequal(double x, double y) { return x != y; }
DEF int isgreater(float x, float y) { return x > y; }
DEF int isgreater(double x, double y) { return x > y; }
DEF int isgreaterequal(float x, float y) { return x >= y; }
DEF int isgreaterequal(double x, double y) { return x >= y; }
DEF int isless(float x, float y) { return x < y; }
DEF int isless(double x, double y) { return x < y; }
DEF int islessequal(float x, float y) { return x <= y; }
DEF int islessequal(double x, double y) { return x <= y; }
DEF int isordered(float x, float y) { return x == x && y == y; }
DEF int isordered(double x, double y) { return x == x && y == y; }
DEF int isunordered(float x, float y) { return x != x || y != y; }
DEF int isunordered(double x, double y) { return x != x || y != y; }

// Vector relationals return -1 (all bits set) for true, per element.
#define REL_UNARY_VEC(name, T, I, N)                                           \
  DEF I##N name(T##N x) {                                                      \
    I##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = name(x[i]) ? -1 : 0;                                              \
    return r;                                                                  \
  }
#define REL_BINARY_VEC(name, T, I, N)                                          \
  DEF I##N name(T##N x, T##N y) {                                              \
    I##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = name(x[i], y[i]) ? -1 : 0;                                        \
    return r;                                                                  \
  }
#define REL_WIDTH_T(T, I, N)                                                   \
  REL_UNARY_VEC(isnan, T, I, N) REL_UNARY_VEC(isinf, T, I, N)                  \
  REL_UNARY_VEC(isfinite, T, I, N) REL_UNARY_VEC(isnormal, T, I, N)            \
  REL_UNARY_VEC(signbit, T, I, N) REL_BINARY_VEC(isequal, T, I, N)             \
  REL_BINARY_VEC(isnotequal, T, I, N) REL_BINARY_VEC(isgreater, T, I, N)       \
  REL_BINARY_VEC(isgreaterequal, T, I, N) REL_BINARY_VEC(isless, T, I, N)      \
  REL_BINARY_VEC(islessequal, T, I, N) REL_BINARY_VEC(isordered, T, I, N)      \
  REL_BINARY_VEC(isunordered, T, I, N)
#define REL_WIDTH(N) REL_WIDTH_T(float, int, N) REL_WIDTH_T(double, long, N)
REL_WIDTH(2) REL_WIDTH(3) REL_WIDTH(4) REL_WIDTH(8) REL_WIDTH(16)

COMMON_WIDTH(2) COMMON_WIDTH(3) COMMON_WIDTH(4) COMMON_WIDTH(8)
COMMON_WIDTH(16)

//===----------------------------------------------------------------------===//
// Geometric functions (6.12.5)
//===----------------------------------------------------------------------===//

#define GEOMETRIC(T, N)                                                        \
  DEF T dot(T##N x, T##N y) {                                                  \
    T sum = (T)0;                                                              \
    for (int i = 0; i < N; ++i)                                                \
      sum += x[i] * y[i];                                                      \
    return sum;                                                                \
  }                                                                            \
  DEF T length(T##N x) { return sqrt(dot(x, x)); }                             \
  DEF T distance(T##N x, T##N y) { return length(x - y); }                     \
  DEF T##N normalize(T##N x) {                                                 \
    T len = length(x);                                                         \
    return len == (T)0 ? x : x / len;                                          \
  }
#define GEOMETRIC_FAST(N)                                                      \
  DEF float fast_length(float##N x) { return length(x); }                      \
  DEF float fast_distance(float##N x, float##N y) { return distance(x, y); }   \
  DEF float##N fast_normalize(float##N x) { return normalize(x); }
DEF float dot(float x, float y) { return x * y; }
DEF double dot(double x, double y) { return x * y; }
DEF float length(float x) { return fabs(x); }
DEF double length(double x) { return fabs(x); }
DEF float distance(float x, float y) { return fabs(x - y); }
DEF double distance(double x, double y) { return fabs(x - y); }
DEF float normalize(float x) { return x == 0.0f ? x : copysign(1.0f, x); }
DEF double normalize(double x) { return x == 0.0 ? x : copysign(1.0, x); }
DEF float fast_length(float x) { return length(x); }
DEF float fast_distance(float x, float y) { return distance(x, y); }
DEF float fast_normalize(float x) { return normalize(x); }
GEOMETRIC(float, 2) GEOMETRIC(float, 3) GEOMETRIC(float, 4)
GEOMETRIC(double, 2) GEOMETRIC(double, 3) GEOMETRIC(double, 4)
GEOMETRIC_FAST(2) GEOMETRIC_FAST(3) GEOMETRIC_FAST(4)
#define CROSS(T, N)                                                            \
  DEF T##N cross(T##N a, T##N b) {                                             \
    T##N r = (T##N)(0);                                                        \
    r.x = a.y * b.z - a.z * b.y;                                               \
    r.y = a.z * b.x - a.x * b.z;                                               \
    r.z = a.x * b.y - a.y * b.x;                                               \
    return r;                                                                  \
  }
CROSS(float, 3) CROSS(float, 4) CROSS(double, 3) CROSS(double, 4)

//===----------------------------------------------------------------------===//
// Integer functions (6.12.3)
//===----------------------------------------------------------------------===//

#define UINT_SCALAR(U)                                                         \
  DEF U abs(U x) { return x; }                                                 \
  DEF U abs_diff(U x, U y) { return x > y ? x - y : y - x; }                   \
  DEF U max(U x, U y) { return x > y ? x : y; }                                \
  DEF U min(U x, U y) { return x < y ? x : y; }                                \
  DEF U clamp(U x, U lo, U hi) { return min(max(x, lo), hi); }                 \
  DEF U add_sat(U x, U y) { U r = x + y; return r < x ? (U)~(U)0 : r; }        \
  DEF U sub_sat(U x, U y) { return x > y ? x - y : (U)0; }                     \
  DEF U hadd(U x, U y) { return (x >> 1) + (y >> 1) + (x & y & 1); }           \
  DEF U rhadd(U x, U y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }        \
  DEF U clz(U x) {                                                             \
    return x == 0 ? (U)(sizeof(U) * 8)                                         \
                  : (U)(__builtin_clzl((ulong)x) - (64 - sizeof(U) * 8));     \
  }                                                                            \
  DEF U popcount(U x) { return (U)__builtin_popcountl((ulong)x); }            \
  DEF U rotate(U x, U n) {                                                     \
    uint bits = sizeof(U) * 8, s = (uint)n & (bits - 1);                       \
    return s == 0 ? x : (U)((x << s) | (x >> (bits - s)));                     \
  }
#define SINT_SCALAR(T, U, MIN, MAX)                                            \
  DEF U abs(T x) { return x < 0 ? (U)0 - (U)x : (U)x; }                        \
  DEF U abs_diff(T x, T y) { return x > y ? (U)x - (U)y : (U)y - (U)x; }       \
  DEF T max(T x, T y) { return x > y ? x : y; }                                \
  DEF T min(T x, T y) { return x < y ? x : y; }                                \
  DEF T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                 \
  DEF T add_sat(T x, T y) {                                                    \
    T r;                                                                       \
    if (!__builtin_add_overflow(x, y, &r))                                     \
      return r;                                                                \
    return y > 0 ? MAX : MIN;                                                  \
  }                                                                            \
  DEF T sub_sat(T x, T y) {                                                    \
    T r;                                                                       \
    if (!__builtin_sub_overflow(x, y, &r))                                     \
      return r;                                                                \
    return y < 0 ? MAX : MIN;                                                  \
  }                                                                            \
  DEF T hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }           \
  DEF T rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }        \
  DEF T clz(T x) { return (T)clz((U)x); }                                      \
  DEF T popcount(T x) { return (T)popcount((U)x); }                            \
  DEF T rotate(T x, T n) { return (T)rotate((U)x, (U)n); }
UINT_SCALAR(uchar) UINT_SCALAR(ushort) UINT_SCALAR(uint) UINT_SCALAR(ulong)
SINT_SCALAR(char, uchar, CHAR_MIN, CHAR_MAX)
SINT_SCALAR(short, ushort, SHRT_MIN, SHRT_MAX)
SINT_SCALAR(int, uint, INT_MIN, INT_MAX)
SINT_SCALAR(long, ulong, LONG_MIN, LONG_MAX)

DEF int mul24(int x, int y) { return x * y; }
DEF uint mul24(uint x, uint y) { return x * y; }
DEF int mad24(int x, int y, int z) { return x * y + z; }
DEF uint mad24(uint x, uint y, uint z) { return x * y + z; }
DEF int mul_hi(int x, int y) { return (int)(((long)x * (long)y) >> 32); }
DEF uint mul_hi(uint x, uint y) { return (uint)(((ulong)x * (ulong)y) >> 32); }
DEF long mul_hi(long x, long y) {
  return (long)(((__int128)x * (__int128)y) >> 64);
}
DEF ulong mul_hi(ulong x, ulong y) {
  return (ulong)(((unsigned __int128)x * (unsigned __int128)y) >> 64);
}
DEF int mad_hi(int x, int y, int z) { return mul_hi(x, y) + z; }
DEF uint mad_hi(uint x, uint y, uint z) { return mul_hi(x, y) + z; }
DEF long mad_hi(long x, long y, long z) { return mul_hi(x, y) + z; }
DEF ulong mad_hi(ulong x, ulong y, ulong z) { return mul_hi(x, y) + z; }
DEF short upsample(char hi, uchar lo) { return (short)((hi << 8) | lo); }
DEF ushort upsample(uchar hi, uchar lo) { return (ushort)((hi << 8) | lo); }
DEF int upsample(short hi, ushort lo) { return ((int)hi << 16) | lo; }
DEF uint upsample(ushort hi, ushort lo) { return ((uint)hi << 16) | lo; }
DEF long upsample(int hi, uint lo) { return ((long)hi << 32) | lo; }
DEF ulong upsample(uint hi, uint lo) { return ((ulong)hi << 32) | lo; }

#define INT_VEC_T(T, U, N)                                                     \
  VEC_UNARY(U, T, N, abs) VEC_BINARY(U, T, N, abs_diff)                        \
  VEC_BINARY(T, T, N, max) VEC_BINARY(T, T, N, min)                            \
  VEC_TERNARY(T, T, N, clamp) VEC_BINARY(T, T, N, add_sat)                     \
  VEC_BINARY(T, T, N, sub_sat) VEC_BINARY(T, T, N, hadd)                       \
  VEC_BINARY(T, T, N, rhadd) VEC_UNARY(T, T, N, clz)                           \
  VEC_UNARY(T, T, N, popcount) VEC_BINARY(T, T, N, rotate)                     \
  VEC_BINARY_SCALAR(T, T, N, T, max) VEC_BINARY_SCALAR(T, T, N, T, min)        \
  DEF T##N clamp(T##N x, T lo, T hi) {                                         \
    return clamp(x, (T##N)(lo), (T##N)(hi));                                   \
  }
#define INT_VEC(N)                                                             \
  INT_VEC_T(char, uchar, N) INT_VEC_T(uchar, uchar, N)                         \
  INT_VEC_T(short, ushort, N) INT_VEC_T(ushort, ushort, N)                     \
  INT_VEC_T(int, uint, N) INT_VEC_T(uint, uint, N)                             \
  INT_VEC_T(long, ulong, N) INT_VEC_T(ulong, ulong, N)                         \
  VEC_BINARY(int, int, N, mul24) VEC_BINARY(uint, uint, N, mul24)              \
  VEC_TERNARY(int, int, N, mad24) VEC_TERNARY(uint, uint, N, mad24)            \
  VEC_BINARY(int, int, N, mul_hi) VEC_BINARY(uint, uint, N, mul_hi)            \
  VEC_BINARY(long, long, N, mul_hi) VEC_BINARY(ulong, ulong, N, mul_hi)        \
  VEC_TERNARY(int, int, N, mad_hi) VEC_TERNARY(uint, uint, N, mad_hi)
INT_VEC(2) INT_VEC(3) INT_VEC(4) INT_VEC(8) INT_VEC(16)

//===----------------------------------------------------------------------===//
// select, bitselect, any, all (6.12.6)
//===----------------------------------------------------------------------===//

#define SELECT_SCALAR(T, I, U)                                                 \
  DEF T select(T a, T b, I c) { return c ? b : a; }                            \
  DEF T select(T a, T b, U c) { return c ? b : a; }
#define SELECT_VEC(T, I, U, N)                                                 \
  DEF T##N select(T##N a, T##N b, I##N c) {                                    \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = c[i] < 0 ? b[i] : a[i];                                           \
    return r;                                                                  \
  }                                                                            \
  DEF T##N select(T##N a, T##N b, U##N c) {                                    \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = (c[i] >> (sizeof(c[i]) * 8 - 1)) ? b[i] : a[i];                   \
    return r;                                                                  \
  }
#define SELECT_ALL(T, I, U)                                                    \
  SELECT_SCALAR(T, I, U) SELECT_VEC(T, I, U, 2) SELECT_VEC(T, I, U, 3)         \
  SELECT_VEC(T, I, U, 4) SELECT_VEC(T, I, U, 8) SELECT_VEC(T, I, U, 16)
SELECT_ALL(char, char, uchar) SELECT_ALL(uchar, char, uchar)
SELECT_ALL(short, short, ushort) SELECT_ALL(ushort, short, ushort)
SELECT_ALL(int, int, uint) SELECT_ALL(uint, int, uint)
SELECT_ALL(long, long, ulong) SELECT_ALL(ulong, long, ulong)
SELECT_ALL(float, int, uint) SELECT_ALL(double, long, ulong)

#define BITSELECT_INT(T)                                                       \
  DEF T bitselect(T a, T b, T c) { return (a & ~c) | (b & c); }
#define BITSELECT_ALL_INT(T)                                                   \
  BITSELECT_INT(T) BITSELECT_INT(T##2) BITSELECT_INT(T##3) BITSELECT_INT(T##4) \
  BITSELECT_INT(T##8) BITSELECT_INT(T##16)
BITSELECT_ALL_INT(char) BITSELECT_ALL_INT(uchar) BITSELECT_ALL_INT(short)
BITSELECT_ALL_INT(ushort) BITSELECT_ALL_INT(int) BITSELECT_ALL_INT(uint)
BITSELECT_ALL_INT(long) BITSELECT_ALL_INT(ulong)
#define BITSELECT_FP(T, I)                                                     \
  DEF T bitselect(T a, T b, T c) {                                             \
    return as_##T(bitselect(as_##I(a), as_##I(b), as_##I(c)));                 \
  }
BITSELECT_FP(float, int) BITSELECT_FP(float2, int2) BITSELECT_FP(float3, int3)
BITSELECT_FP(float4, int4) BITSELECT_FP(float8, int8)
BITSELECT_FP(float16, int16) BITSELECT_FP(double, long)
BITSELECT_FP(double2, long2) BITSELECT_FP(double3, long3)
BITSELECT_FP(double4, long4) BITSELECT_FP(double8, long8)
BITSELECT_FP(double16, long16)

#define ANY_ALL(T, N)                                                          \
  DEF int any(T##N x) {                                                        \
    int r = 0;                                                                 \
    for (int i = 0; i < N; ++i)                                                \
      r |= x[i] < 0;                                                           \
    return r;                                                                  \
  }                                                                            \
  DEF int all(T##N x) {                                                        \
    int r = 1;                                                                 \
    for (int i = 0; i < N; ++i)                                                \
      r &= x[i] < 0;                                                           \
    return r;                                                                  \
  }
#define ANY_ALL_T(T)                                                           \
  DEF int any(T x) { return x < 0; }                                           \
  DEF int all(T x) { return x < 0; }                                           \
  ANY_ALL(T, 2) ANY_ALL(T, 3) ANY_ALL(T, 4) ANY_ALL(T, 8) ANY_ALL(T, 16)
ANY_ALL_T(char) ANY_ALL_T(short) ANY_ALL_T(int) ANY_ALL_T(long)

//===----------------------------------------------------------------------===//
// vloadn, vstoren (6.12.7)
//===----------------------------------------------------------------------===//

#define VLOAD_STORE_AS(T, N, AS)                                               \
  DEF T##N vload##N(size_t offset, const AS T *p) {                            \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = p[offset * N + i];                                                \
    return r;                                                                  \
  }
#define VSTORE_AS(T, N, AS)                                                    \
  DEF void vstore##N(T##N v, size_t offset, AS T *p) {                         \
    for (int i = 0; i < N; ++i)                                                \
      p[offset * N + i] = v[i];                                                \
  }
#define VLOAD_STORE(T, N)                                                      \
  VLOAD_STORE_AS(T, N, __global) VLOAD_STORE_AS(T, N, __local)                 \
  VLOAD_STORE_AS(T, N, __constant) VLOAD_STORE_AS(T, N, __private)             \
  VSTORE_AS(T, N, __global) VSTORE_AS(T, N, __local)                           \
  VSTORE_AS(T, N, __private)
#define VLOAD_STORE_T(T)                                                       \
  VLOAD_STORE(T, 2) VLOAD_STORE(T, 3) VLOAD_STORE(T, 4) VLOAD_STORE(T, 8)      \
  VLOAD_STORE(T, 16)
VLOAD_STORE_T(char) VLOAD_STORE_T(uchar) VLOAD_STORE_T(short)
VLOAD_STORE_T(ushort) VLOAD_STORE_T(int) VLOAD_STORE_T(uint)
VLOAD_STORE_T(long) VLOAD_STORE_T(ulong) VLOAD_STORE_T(float)
VLOAD_STORE_T(double)

//===----------------------------------------------------------------------===//
// Atomic functions (6.12.11), on __global and __local 32-bit integers
//===----------------------------------------------------------------------===//

#define ATOMIC_RMW(T, AS, name, builtin)                                       \
  DEF T name(volatile AS T *p, T v) {                                          \
    return builtin((AS T *)p, v, __ATOMIC_RELAXED);                            \
  }
#define ATOMICS_AS_T(T, AS)                                                    \
  ATOMIC_RMW(T, AS, atomic_add, __atomic_fetch_add)                            \
  ATOMIC_RMW(T, AS, atomic_sub, __atomic_fetch_sub)                            \
  ATOMIC_RMW(T, AS, atomic_and, __atomic_fetch_and)                            \
  ATOMIC_RMW(T, AS, atomic_or, __atomic_fetch_or)                              \
  ATOMIC_RMW(T, AS, atomic_xor, __atomic_fetch_xor)                            \
  ATOMIC_RMW(T, AS, atomic_min, __atomic_fetch_min)                            \
  ATOMIC_RMW(T, AS, atomic_max, __atomic_fetch_max)                            \
  ATOMIC_RMW(T, AS, atomic_xchg, __atomic_exchange_n)                          \
  DEF T atomic_inc(volatile AS T *p) {                                         \
    return __atomic_fetch_add((AS T *)p, (T)1, __ATOMIC_RELAXED);              \
  }                                                                            \
  DEF T atomic_dec(volatile AS T *p) {                                         \
    return __atomic_fetch_sub((AS T *)p, (T)1, __ATOMIC_RELAXED);              \
  }                                                                            \
  DEF T atomic_cmpxchg(volatile AS T *p, T cmp, T v) {                         \
    __atomic_compare_exchange_n((AS T *)p, &cmp, v, false, __ATOMIC_RELAXED,   \
                                __ATOMIC_RELAXED);                             \
    return cmp;                                                                \
  }
ATOMICS_AS_T(int, __global) ATOMICS_AS_T(uint, __global)
ATOMICS_AS_T(int, __local) ATOMICS_AS_T(uint, __local)
DEF float atomic_xchg(volatile __global float *p, float v) {
  return as_float(atomic_xchg((volatile __global int *)p, as_int(v)));
}
DEF float atomic_xchg(volatile __local float *p, float v) {
  return as_float(atomic_xchg((volatile __local int *)p, as_int(v)));
}

//===----------------------------------------------------------------------===//
// Conversions convert_<type>[_sat] (6.2.3), default rounding
//===----------------------------------------------------------------------===//

// Out-of-range float-to-integer conversions are undefined in C but defined
// by OpenCL's _sat variants: clamp first, NaN gives 0.
#define CONVERT_PLAIN(D, S)                                                    \
  DEF D convert_##D(S x) { return (D)x; }
#define CONVERT_SAT_FROM_FP(D, S, MIN, MAX)                                    \
  DEF D convert_##D##_sat(S x) {                                               \
    return x != x ? (D)0 : x <= (S)MIN ? (D)MIN : x >= (S)MAX ? (D)MAX : (D)x; \
  }
#define CONVERT_SAT_FROM_INT(D, S, MIN, MAX)                                   \
  DEF D convert_##D##_sat(S x) {                                               \
    return (x < 0 && (long)x < (long)MIN) ? (D)MIN                             \
           : (x > 0 && (ulong)x > (ulong)MAX) ? (D)MAX                         \
                                               : (D)x;                         \
  }
#define CONVERT_TO_INT(D, MIN, MAX)                                            \
  CONVERT_PLAIN(D, char) CONVERT_PLAIN(D, uchar) CONVERT_PLAIN(D, short)       \
  CONVERT_PLAIN(D, ushort) CONVERT_PLAIN(D, int) CONVERT_PLAIN(D, uint)        \
  CONVERT_PLAIN(D, long) CONVERT_PLAIN(D, ulong) CONVERT_PLAIN(D, float)       \
  CONVERT_PLAIN(D, double) CONVERT_SAT_FROM_INT(D, char, MIN, MAX)             \
  CONVERT_SAT_FROM_INT(D, uchar, MIN, MAX)                                     \
  CONVERT_SAT_FROM_INT(D, short, MIN, MAX)                                     \
  CONVERT_SAT_FROM_INT(D, ushort, MIN, MAX)                                    \
  CONVERT_SAT_FROM_INT(D, int, MIN, MAX)                                       \
  CONVERT_SAT_FROM_INT(D, uint, MIN, MAX)                                      \
  CONVERT_SAT_FROM_INT(D, long, MIN, MAX)                                      \
  CONVERT_SAT_FROM_INT(D, ulong, MIN, MAX)                                     \
  CONVERT_SAT_FROM_FP(D, float, MIN, MAX)                                      \
  CONVERT_SAT_FROM_FP(D, double, MIN, MAX)
#define CONVERT_TO_FP(D)                                                       \
  CONVERT_PLAIN(D, char) CONVERT_PLAIN(D, uchar) CONVERT_PLAIN(D, short)       \
  CONVERT_PLAIN(D, ushort) CONVERT_PLAIN(D, int) CONVERT_PLAIN(D, uint)        \
  CONVERT_PLAIN(D, long) CONVERT_PLAIN(D, ulong) CONVERT_PLAIN(D, float)       \
  CONVERT_PLAIN(D, double)
CONVERT_TO_INT(char, CHAR_MIN, CHAR_MAX)
CONVERT_TO_INT(uchar, 0, UCHAR_MAX)
CONVERT_TO_INT(short, SHRT_MIN, SHRT_MAX)
CONVERT_TO_INT(ushort, 0, USHRT_MAX)
CONVERT_TO_INT(int, INT_MIN, INT_MAX)
CONVERT_TO_INT(uint, 0, UINT_MAX)
CONVERT_TO_INT(long, LONG_MIN, LONG_MAX)
CONVERT_TO_INT(ulong, 0, ULONG_MAX)
CONVERT_TO_FP(float)
CONVERT_TO_FP(double)

#define CONVERT_VEC(D, S, N, suffix)                                           \
  DEF D##N convert_##D##N##suffix(S##N x) {                                    \
    D##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = convert_##D##suffix(x[i]);                                        \
    return r;                                                                  \
  }
#define CONVERT_VEC_FROM(D, N, suffix)                                         \
  CONVERT_VEC(D, char, N, suffix) CONVERT_VEC(D, uchar, N, suffix)             \
  CONVERT_VEC(D, short, N, suffix) CONVERT_VEC(D, ushort, N, suffix)           \
  CONVERT_VEC(D, int, N, suffix) CONVERT_VEC(D, uint, N, suffix)               \
  CONVERT_VEC(D, long, N, suffix) CONVERT_VEC(D, ulong, N, suffix)             \
  CONVERT_VEC(D, float, N, suffix) CONVERT_VEC(D, double, N, suffix)
#define CONVERT_VEC_INT(D, N)                                                  \
  CONVERT_VEC_FROM(D, N, ) CONVERT_VEC_FROM(D, N, _sat)
#define CONVERT_VEC_WIDTH(N)                                                   \
  CONVERT_VEC_INT(char, N) CONVERT_VEC_INT(uchar, N)                           \
  CONVERT_VEC_INT(short, N) CONVERT_VEC_INT(ushort, N)                         \
  CONVERT_VEC_INT(int, N) CONVERT_VEC_INT(uint, N) CONVERT_VEC_INT(long, N)    \
  CONVERT_VEC_INT(ulong, N) CONVERT_VEC_FROM(float, N, )                       \
  CONVERT_VEC_FROM(double, N, )
CONVERT_VEC_WIDTH(2) CONVERT_VEC_WIDTH(3) CONVERT_VEC_WIDTH(4)
CONVERT_VEC_WIDTH(8) CONVERT_VEC_WIDTH(16)

//===----------------------------------------------------------------------===//
// Work-group shuffle: the value of work-item `lane` (linear local id, taken
// modulo the work-group size) of the calling work-group. Every work-item of
// the group must call it, as with barrier.
//===----------------------------------------------------------------------===//

#define SHUFFLE32(T)                                                           \
  DEF T shuffle(T value, uint lane) {                                          \
    return as_##T(__respec_work_group_shuffle_i32(as_uint(value), lane));      \
  }
#define SHUFFLE64(T)                                                           \
  DEF T shuffle(T value, uint lane) {                                          \
    return as_##T(__respec_work_group_shuffle_i64(as_ulong(value), lane));     \
  }
SHUFFLE32(int) SHUFFLE32(uint) SHUFFLE32(float)
SHUFFLE64(long) SHUFFLE64(ulong) SHUFFLE64(double)

//===----------------------------------------------------------------------===//
// Vector shuffle and shuffle2 (6.12.12). Declared again in respec's prelude,
// whose work-group shuffle would otherwise hide the standard ones.
//===----------------------------------------------------------------------===//

#define VSHUFFLE(T, U, N, M)                                                   \
  DEF T##M shuffle(T##N x, U##M mask) {                                        \
    T##M r;                                                                    \
    for (int i = 0; i < M; ++i)                                                \
      r[i] = x[mask[i] % N];                                                   \
    return r;                                                                  \
  }                                                                            \
  DEF T##M shuffle2(T##N x, T##N y, U##M mask) {                               \
    T##M r;                                                                    \
    for (int i = 0; i < M; ++i) {                                              \
      uint k = mask[i] % (2 * N);                                              \
      r[i] = k < N ? x[k] : y[k - N];                                          \
    }                                                                          \
    return r;                                                                  \
  }
#define VSHUFFLE_M(T, U, N)                                                    \
  VSHUFFLE(T, U, N, 2) VSHUFFLE(T, U, N, 4) VSHUFFLE(T, U, N, 8)               \
  VSHUFFLE(T, U, N, 16)
#define VSHUFFLE_T(T, U)                                                       \
  VSHUFFLE_M(T, U, 2) VSHUFFLE_M(T, U, 4) VSHUFFLE_M(T, U, 8)                  \
  VSHUFFLE_M(T, U, 16)
VSHUFFLE_T(char, uchar) VSHUFFLE_T(uchar, uchar) VSHUFFLE_T(short, ushort)
VSHUFFLE_T(ushort, ushort) VSHUFFLE_T(int, uint) VSHUFFLE_T(uint, uint)
VSHUFFLE_T(long, ulong) VSHUFFLE_T(ulong, ulong) VSHUFFLE_T(float, uint)
VSHUFFLE_T(double, ulong)

//===----------------------------------------------------------------------===//
// More math: functions in units of pi, nan, built-ins writing through a
// pointer (one overload per address space)
//===----------------------------------------------------------------------===//

float __nv_frexpf(float, int *);
double __nv_frexp(double, int *);
float __nv_remquof(float, float, int *);
double __nv_remquo(double, double, int *);

#define PI_FUNCTIONS(T)                                                        \
  DEF T acospi(T x) { return acos(x) / (T)M_PI; }                              \
  DEF T asinpi(T x) { return asin(x) / (T)M_PI; }                              \
  DEF T atanpi(T x) { return atan(x) / (T)M_PI; }                              \
  DEF T atan2pi(T y, T x) { return atan2(y, x) / (T)M_PI; }                    \
  DEF T tanpi(T x) { return sinpi(x) / cospi(x); }
PI_FUNCTIONS(float)
PI_FUNCTIONS(double)
#define PI_WIDTH(N)                                                            \
  UNARY_WIDTH(acospi, N) UNARY_WIDTH(asinpi, N) UNARY_WIDTH(atanpi, N)         \
  UNARY_WIDTH(tanpi, N) BINARY_WIDTH(atan2pi, N)
PI_WIDTH(2) PI_WIDTH(3) PI_WIDTH(4) PI_WIDTH(8) PI_WIDTH(16)

DEF float nan(uint code) { return as_float(0x7fc00000u | (code & 0x3fffffu)); }
DEF double nan(ulong code) {
  return as_double(0x7ff8000000000000ul | (code & 0x7fffffffffffful));
}
#define NAN_WIDTH(N)                                                           \
  VEC_UNARY(float, uint, N, nan) VEC_UNARY(double, ulong, N, nan)
NAN_WIDTH(2) NAN_WIDTH(3) NAN_WIDTH(4) NAN_WIDTH(8) NAN_WIDTH(16)

DEF int islessgreater(float x, float y) { return x < y || x > y; }
DEF int islessgreater(double x, double y) { return x < y || x > y; }
#define LESSGREATER_WIDTH(N)                                                   \
  REL_BINARY_VEC(islessgreater, float, int, N)                                 \
  REL_BINARY_VEC(islessgreater, double, long, N)
LESSGREATER_WIDTH(2) LESSGREATER_WIDTH(3) LESSGREATER_WIDTH(4)
LESSGREATER_WIDTH(8) LESSGREATER_WIDTH(16)

// The largest value below 1 (fract's upper bound).
#define BELOW_ONE_float 0x1.fffffep-1f
#define BELOW_ONE_double 0x1.fffffffffffffp-1

// The sign of Gamma(x): negative between the poles -2k-1 and -2k.
#define GAMMA_SIGN(T, x)                                                       \
  ((x) > (T)0 || (x) != (x) || (x) == floor(x)                                 \
       ? ((x) == (T)0 && signbit(x) ? -1 : 1)                                  \
       : (((long)floor(x)) & 1) ? -1 : 1)

#define POINTER_SCALAR(T, AS)                                                  \
  DEF T fract(T x, AS T *whole) {                                              \
    T f = floor(x);                                                            \
    *whole = f;                                                                \
    if (x != x)                                                                \
      return x;                                                                \
    if (__builtin_isinf(x))                                                    \
      return copysign((T)0, x);                                                \
    return fmin(x - f, BELOW_ONE_##T);                                         \
  }                                                                            \
  DEF T modf(T x, AS T *whole) {                                               \
    T t = trunc(x);                                                            \
    *whole = t;                                                                \
    return __builtin_isinf(x) ? copysign((T)0, x) : copysign(x - t, x);        \
  }                                                                            \
  DEF T sincos(T x, AS T *cosine) {                                            \
    *cosine = cos(x);                                                          \
    return sin(x);                                                             \
  }                                                                            \
  DEF T frexp(T x, AS int *exponent) {                                         \
    int e = 0;                                                                 \
    T m = sizeof(T) == 4 ? __nv_frexpf(x, &e) : __nv_frexp(x, &e);             \
    *exponent = e;                                                             \
    return m;                                                                  \
  }                                                                            \
  DEF T remquo(T x, T y, AS int *quotient) {                                   \
    int q = 0;                                                                 \
    T r = sizeof(T) == 4 ? __nv_remquof(x, y, &q) : __nv_remquo(x, y, &q);     \
    *quotient = q;                                                             \
    return r;                                                                  \
  }                                                                            \
  DEF T lgamma_r(T x, AS int *sign) {                                          \
    *sign = GAMMA_SIGN(T, x);                                                  \
    return lgamma(x);                                                          \
  }
#define POINTER_VECTOR(T, N, AS)                                               \
  DEF T##N fract(T##N x, AS T##N *whole) {                                     \
    T##N r, w;                                                                 \
    for (int i = 0; i < N; ++i) {                                              \
      T wi;                                                                    \
      r[i] = fract(x[i], &wi);                                                 \
      w[i] = wi;                                                               \
    }                                                                          \
    *whole = w;                                                                \
    return r;                                                                  \
  }                                                                            \
  DEF T##N modf(T##N x, AS T##N *whole) {                                      \
    T##N r, w;                                                                 \
    for (int i = 0; i < N; ++i) {                                              \
      T wi;                                                                    \
      r[i] = modf(x[i], &wi);                                                  \
      w[i] = wi;                                                               \
    }                                                                          \
    *whole = w;                                                                \
    return r;                                                                  \
  }                                                                            \
  DEF T##N sincos(T##N x, AS T##N *cosine) {                                   \
    *cosine = cos(x);                                                          \
    return sin(x);                                                             \
  }                                                                            \
  DEF T##N frexp(T##N x, AS int##N *exponent) {                                \
    T##N r;                                                                    \
    int##N e;                                                                  \
    for (int i = 0; i < N; ++i) {                                              \
      int ei;                                                                  \
      r[i] = frexp(x[i], &ei);                                                 \
      e[i] = ei;                                                               \
    }                                                                          \
    *exponent = e;                                                             \
    return r;                                                                  \
  }                                                                            \
  DEF T##N remquo(T##N x, T##N y, AS int##N *quotient) {                       \
    T##N r;                                                                    \
    int##N q;                                                                  \
    for (int i = 0; i < N; ++i) {                                              \
      int qi;                                                                  \
      r[i] = remquo(x[i], y[i], &qi);                                          \
      q[i] = qi;                                                               \
    }                                                                          \
    *quotient = q;                                                             \
    return r;                                                                  \
  }                                                                            \
  DEF T##N lgamma_r(T##N x, AS int##N *sign) {                                 \
    T##N r;                                                                    \
    int##N s;                                                                  \
    for (int i = 0; i < N; ++i) {                                              \
      int si;                                                                  \
      r[i] = lgamma_r(x[i], &si);                                              \
      s[i] = si;                                                               \
    }                                                                          \
    *sign = s;                                                                 \
    return r;                                                                  \
  }
#define POINTER_AS(T, AS)                                                      \
  POINTER_SCALAR(T, AS) POINTER_VECTOR(T, 2, AS) POINTER_VECTOR(T, 3, AS)      \
  POINTER_VECTOR(T, 4, AS) POINTER_VECTOR(T, 8, AS) POINTER_VECTOR(T, 16, AS)
POINTER_AS(float, __private) POINTER_AS(float, __global)
POINTER_AS(float, __local) POINTER_AS(double, __private)
POINTER_AS(double, __global) POINTER_AS(double, __local)

//===----------------------------------------------------------------------===//
// More integer functions: mad_sat, mul_hi and mad_hi of narrow types,
// vector upsample
//===----------------------------------------------------------------------===//

#define NARROW_HI(T, W, BITS)                                                  \
  DEF T mul_hi(T x, T y) { return (T)(((W)x * (W)y) >> BITS); }                \
  DEF T mad_hi(T x, T y, T z) { return mul_hi(x, y) + z; }
NARROW_HI(char, int, 8) NARROW_HI(uchar, uint, 8)
NARROW_HI(short, int, 16) NARROW_HI(ushort, uint, 16)

#define MAD_SAT(T, W, MIN, MAX)                                                \
  DEF T mad_sat(T x, T y, T z) {                                               \
    W r = (W)x * (W)y + (W)z;                                                  \
    return r < (W)(MIN) ? (T)(MIN) : r > (W)(MAX) ? (T)(MAX) : (T)r;           \
  }
MAD_SAT(char, int, CHAR_MIN, CHAR_MAX)
MAD_SAT(uchar, uint, 0, UCHAR_MAX)
MAD_SAT(short, int, SHRT_MIN, SHRT_MAX)
MAD_SAT(ushort, uint, 0, USHRT_MAX)
MAD_SAT(int, long, INT_MIN, INT_MAX)
MAD_SAT(uint, ulong, 0, UINT_MAX)
MAD_SAT(long, __int128, LONG_MIN, LONG_MAX)
MAD_SAT(ulong, unsigned __int128, 0, ULONG_MAX)

#define NARROW_VEC(N)                                                          \
  VEC_BINARY(char, char, N, mul_hi) VEC_BINARY(uchar, uchar, N, mul_hi)        \
  VEC_BINARY(short, short, N, mul_hi) VEC_BINARY(ushort, ushort, N, mul_hi)    \
  VEC_TERNARY(char, char, N, mad_hi) VEC_TERNARY(uchar, uchar, N, mad_hi)      \
  VEC_TERNARY(short, short, N, mad_hi)                                         \
  VEC_TERNARY(ushort, ushort, N, mad_hi)                                       \
  VEC_TERNARY(long, long, N, mad_hi) VEC_TERNARY(ulong, ulong, N, mad_hi)      \
  VEC_TERNARY(char, char, N, mad_sat) VEC_TERNARY(uchar, uchar, N, mad_sat)    \
  VEC_TERNARY(short, short, N, mad_sat)                                        \
  VEC_TERNARY(ushort, ushort, N, mad_sat) VEC_TERNARY(int, int, N, mad_sat)    \
  VEC_TERNARY(uint, uint, N, mad_sat) VEC_TERNARY(long, long, N, mad_sat)      \
  VEC_TERNARY(ulong, ulong, N, mad_sat)
NARROW_VEC(2) NARROW_VEC(3) NARROW_VEC(4) NARROW_VEC(8) NARROW_VEC(16)

#define UPSAMPLE_VEC(R, H, L, N)                                               \
  DEF R##N upsample(H##N hi, L##N lo) {                                        \
    R##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = upsample(hi[i], lo[i]);                                           \
    return r;                                                                  \
  }
#define UPSAMPLE_WIDTH(N)                                                      \
  UPSAMPLE_VEC(short, char, uchar, N) UPSAMPLE_VEC(ushort, uchar, uchar, N)    \
  UPSAMPLE_VEC(int, short, ushort, N) UPSAMPLE_VEC(uint, ushort, ushort, N)    \
  UPSAMPLE_VEC(long, int, uint, N) UPSAMPLE_VEC(ulong, uint, uint, N)
UPSAMPLE_WIDTH(2) UPSAMPLE_WIDTH(3) UPSAMPLE_WIDTH(4) UPSAMPLE_WIDTH(8)
UPSAMPLE_WIDTH(16)
