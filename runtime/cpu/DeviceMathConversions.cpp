//===- DeviceMathConversions.cpp - Conversions with CUDA's rounding -------===//
//
// Float-to-integer conversions saturate and map NaN to 0 (PTX cvt), unlike a
// C cast. Conversions to floating point under a directed rounding mode are
// computed exactly: convert to nearest, compare with the exact value in a
// wider type, and step one ulp where the mode demands.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

enum class Rounding { Nearest, Down, Up, TowardZero };

double roundToIntegral(double x, Rounding mode) {
  switch (mode) {
  case Rounding::Nearest:
    return std::nearbyint(x); // ties to even in the default mode
  case Rounding::Down:
    return std::floor(x);
  case Rounding::Up:
    return std::ceil(x);
  case Rounding::TowardZero:
    return std::trunc(x);
  }
  return x;
}

/// Rounds `x` by `mode` and saturates to I's range; NaN gives 0.
template <typename I> I toInteger(double x, Rounding mode) {
  if (std::isnan(x))
    return 0;
  double r = roundToIntegral(x, mode);
  // Both bounds are powers of two (or zero), hence exact in double.
  const double lowest = static_cast<double>(std::numeric_limits<I>::min());
  const double beyond = std::ldexp(1.0, std::numeric_limits<I>::digits);
  if (r <= lowest)
    return std::numeric_limits<I>::min();
  if (r >= beyond)
    return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}

/// Converts `exact` (held exactly in long double) to F under `mode`.
template <typename F> F toFloating(long double exact, Rounding mode) {
  F nearest = static_cast<F>(exact);
  if (std::isnan(exact) || mode == Rounding::Nearest)
    return nearest;
  long double got = nearest;
  const F inf = std::numeric_limits<F>::infinity();
  bool tooHigh = got > exact, tooLow = got < exact;
  if (mode == Rounding::TowardZero) {
    if (exact >= 0 ? tooHigh : tooLow)
      return std::nextafter(nearest, static_cast<F>(0));
  } else if (mode == Rounding::Down && tooHigh) {
    return std::nextafter(nearest, -inf);
  } else if (mode == Rounding::Up && tooLow) {
    return std::nextafter(nearest, inf);
  }
  return nearest;
}

template <typename To, typename From> To bitCast(From value) {
  static_assert(sizeof(To) == sizeof(From), "size mismatch");
  To result;
  std::memcpy(&result, &value, sizeof(result));
  return result;
}

/// IEEE binary16 bits of `x`, rounded to nearest even.
unsigned short floatToHalfBits(float x) {
  uint32_t bits = bitCast<uint32_t>(x);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN: keep it quiet
    return static_cast<unsigned short>(sign | 0x7e00u);
  if (magnitude >= 0x477ff000u) // rounds to infinity (>= 65520)
    return static_cast<unsigned short>(sign | 0x7c00u);
  float absolute = bitCast<float>(magnitude);
  if (magnitude < 0x38800000u) { // subnormal half: units of 2^-24
    float units = std::nearbyint(absolute * 16777216.0f);
    return static_cast<unsigned short>(sign | static_cast<uint32_t>(units));
  }
  // Normal: drop 13 mantissa bits with round-to-nearest-even.
  uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return static_cast<unsigned short>(sign | ((rounded - 0x38000000u) >> 13));
}

float halfBitsToFloat(unsigned short h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) { // zero or subnormal
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31)
    return bitCast<float>(sign | 0x7f800000u | (mantissa << 13));
  return bitCast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

} // namespace

// Defines PREFIX_rn/_rd/_ru/_rz calling CONVERT(x, Rounding::...).
#define RESPEC_FOUR_MODES(PREFIX, RESULT, ARG, CONVERT)                        \
  RESULT __nv_##PREFIX##_rn(ARG x) { return CONVERT(x, Rounding::Nearest); }   \
  RESULT __nv_##PREFIX##_rd(ARG x) { return CONVERT(x, Rounding::Down); }      \
  RESULT __nv_##PREFIX##_ru(ARG x) { return CONVERT(x, Rounding::Up); }        \
  RESULT __nv_##PREFIX##_rz(ARG x) { return CONVERT(x, Rounding::TowardZero); }

extern "C" {

RESPEC_FOUR_MODES(float2int, int, float, toInteger<int>)
RESPEC_FOUR_MODES(float2uint, unsigned int, float, toInteger<unsigned int>)
RESPEC_FOUR_MODES(float2ll, long long, float, toInteger<long long>)
RESPEC_FOUR_MODES(float2ull, unsigned long long, float,
                  toInteger<unsigned long long>)
RESPEC_FOUR_MODES(double2int, int, double, toInteger<int>)
RESPEC_FOUR_MODES(double2uint, unsigned int, double, toInteger<unsigned int>)
RESPEC_FOUR_MODES(double2ll, long long, double, toInteger<long long>)
RESPEC_FOUR_MODES(double2ull, unsigned long long, double,
                  toInteger<unsigned long long>)

RESPEC_FOUR_MODES(int2float, float, int, toFloating<float>)
RESPEC_FOUR_MODES(uint2float, float, unsigned int, toFloating<float>)
RESPEC_FOUR_MODES(ll2float, float, long long, toFloating<float>)
RESPEC_FOUR_MODES(ull2float, float, unsigned long long, toFloating<float>)
RESPEC_FOUR_MODES(ll2double, double, long long, toFloating<double>)
RESPEC_FOUR_MODES(ull2double, double, unsigned long long, toFloating<double>)
RESPEC_FOUR_MODES(double2float, float, double, toFloating<float>)

double __nv_int2double_rn(int x) { return x; }
double __nv_uint2double_rn(unsigned int x) { return x; }

int __nv_float_as_int(float x) { return bitCast<int>(x); }
unsigned int __nv_float_as_uint(float x) { return bitCast<unsigned int>(x); }
float __nv_int_as_float(int x) { return bitCast<float>(x); }
float __nv_uint_as_float(unsigned int x) { return bitCast<float>(x); }
unsigned long long __nv_double_as_longlong(double x) {
  return bitCast<unsigned long long>(x);
}
double __nv_longlong_as_double(long long x) { return bitCast<double>(x); }
int __nv_double2hiint(double x) {
  return static_cast<int>(bitCast<uint64_t>(x) >> 32);
}
int __nv_double2loint(double x) {
  return static_cast<int>(bitCast<uint64_t>(x) & 0xffffffffu);
}
double __nv_hiloint2double(int hi, int lo) {
  uint64_t bits = (static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) |
                  static_cast<uint32_t>(lo);
  return bitCast<double>(bits);
}

unsigned short __nv_float2half_rn(float x) { return floatToHalfBits(x); }
float __nv_half2float(unsigned short h) { return halfBitsToFloat(h); }

} // extern "C"

#undef RESPEC_FOUR_MODES
