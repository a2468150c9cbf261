//===- DeviceMathTest.cpp - Spot checks of the __nv_* device math ---------===//

#include "RuntimeTest.h"

#include <cmath>
#include <cstdint>

extern "C" {
float __nv_fadd_rd(float, float);
float __nv_fadd_ru(float, float);
float __nv_fdiv_rz(float, float);
double __nv_dmul_ru(double, double);
int __nv_float2int_rn(float);
int __nv_float2int_rd(float);
unsigned int __nv_float2uint_rz(float);
long long __nv_double2ll_rn(double);
float __nv_int2float_rd(int);
float __nv_int2float_ru(int);
float __nv_ull2float_rz(unsigned long long);
float __nv_double2float_ru(double);
unsigned short __nv_float2half_rn(float);
float __nv_half2float(unsigned short);
int __nv_popc(unsigned int);
int __nv_clz(int);
int __nv_ffs(int);
int __nv_brev(int);
int __nv_byte_perm(int, int, int);
unsigned int __nv_umulhi(unsigned int, unsigned int);
int __nv_mul24(int, int);
int __nv_vadd4(int, int);
int __nv_vaddus2(int, int);
int __nv_vcmpgts4(int, int);
int __nv_vsadu4(int, int);
int __nv_vabsss2(int);
float __nv_saturatef(float);
float __nv_erfinvf(float);
double __nv_erfcinv(double);
double __nv_normcdfinv(double);
float __nv_sinpif(float);
float __nv_cospif(float);
double __nv_erfcx(double);
float __nv_norm3df(float, float, float);
void __nv_sincosf(float, float *, float *);
float __nv_fast_expf(float);
}

static bool near(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance * std::fmax(1.0, std::fabs(b));
}

int main() {
  // Directed rounding: 1 + 2^-30 is not representable in float.
  float tiny = std::ldexp(1.0f, -30);
  CHECK(__nv_fadd_rd(1.0f, tiny) == 1.0f);
  CHECK(__nv_fadd_ru(1.0f, tiny) == std::nextafter(1.0f, 2.0f));
  CHECK(__nv_fdiv_rz(1.0f, 3.0f) < 1.0 / 3.0);
  CHECK(__nv_dmul_ru(1.0 / 3.0, 3.0) >= 1.0);

  // Conversions: ties to even, saturation, NaN to zero.
  CHECK(__nv_float2int_rn(2.5f) == 2 && __nv_float2int_rn(3.5f) == 4);
  CHECK(__nv_float2int_rd(-1.5f) == -2);
  CHECK(__nv_float2int_rn(3e9f) == INT32_MAX);
  CHECK(__nv_float2int_rn(NAN) == 0);
  CHECK(__nv_float2uint_rz(-5.0f) == 0u);
  CHECK(__nv_double2ll_rn(1e30) == INT64_MAX);
  CHECK(__nv_int2float_rd(16777217) == 16777216.0f);
  CHECK(__nv_int2float_ru(16777217) == 16777218.0f);
  CHECK(__nv_ull2float_rz(~0ULL) < 18446744073709551616.0f);
  CHECK(__nv_double2float_ru(1.0 + 1e-12) > 1.0f);
  CHECK(__nv_float2half_rn(1.0f) == 0x3c00 &&
        __nv_float2half_rn(-2.0f) == 0xc000);
  CHECK(__nv_float2half_rn(65520.0f) == 0x7c00);
  CHECK(__nv_half2float(0x3555) == 0.333251953125f);
  CHECK(__nv_half2float(0x0001) == std::ldexp(1.0f, -24));

  // Integer intrinsics.
  CHECK(__nv_popc(0xf0f0u) == 8 && __nv_clz(1) == 31 && __nv_clz(0) == 32);
  CHECK(__nv_ffs(0) == 0 && __nv_ffs(8) == 4);
  CHECK(uint32_t(__nv_brev(1)) == 0x80000000u);
  CHECK(uint32_t(__nv_byte_perm(0x33221100, 0x77665544, 0x5140)) ==
        0x55114400u);
  CHECK(__nv_umulhi(0x80000000u, 4u) == 2u);
  CHECK(__nv_mul24(0x00ffffff, 2) == -2);
  CHECK(uint32_t(__nv_vadd4(0x01ff0203, 0x01010101)) == 0x02000304u);
  CHECK(uint32_t(__nv_vaddus2(0xfff00001, 0x00200001)) == 0xffff0002u);
  CHECK(uint32_t(__nv_vcmpgts4(0x01ff7f80, 0x00000000)) == 0xff00ff00u);
  CHECK(__nv_vsadu4(0x0a000005, 0x05000a00) == 20);
  CHECK(uint32_t(__nv_vabsss2(int(0x80000001u))) == 0x7fff0001u);

  // Special functions.
  CHECK(__nv_saturatef(NAN) == 0.0f && __nv_saturatef(1.5f) == 1.0f);
  CHECK(near(std::erf(__nv_erfinvf(0.3f)), 0.3, 1e-6));
  CHECK(near(std::erfc(__nv_erfcinv(1e-100)), 1e-100, 1e-13));
  CHECK(near(__nv_normcdfinv(0.975), 1.959963984540054, 1e-14));
  CHECK(__nv_sinpif(1.0f) == 0.0f && __nv_cospif(0.5f) == 0.0f);
  CHECK(near(__nv_sinpif(0.25f), std::sqrt(0.5), 1e-7));
  CHECK(near(__nv_erfcx(30.0), 0.0187958888614168, 1e-9));
  CHECK(near(__nv_erfcx(1.0), std::exp(1.0) * std::erfc(1.0), 1e-14));
  CHECK(near(__nv_norm3df(3e30f, 4e30f, 0.0f), 5e30, 1e-6));
  float s = 0, c = 0;
  __nv_sincosf(0.5f, &s, &c);
  CHECK(s == std::sin(0.5f) && c == std::cos(0.5f));
  CHECK(near(__nv_fast_expf(1.0f), M_E, 1e-6));
  return finishTest("DeviceMathTest");
}
