//===- RuntimeTest.h - Helpers for the runtime's C++ tests ----------------===//
//
// The runtime tests call the CUDA API directly, without the compiler: they
// register hand-written respec_module tables whose launch functions are
// plain C++ loops, exactly as compiled programs do from their module
// constructors.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TEST_RUNTIME_RUNTIMETEST_H
#define RESPEC_TEST_RUNTIME_RUNTIMETEST_H

#include "respec_rt/abi.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

extern "C" {
void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int threadLimit, uint3 *tid,
                            uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size,
                       int constant, int global);
}

static int testFailures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,    \
                   #cond);                                                     \
      ++testFailures;                                                          \
    }                                                                          \
  } while (0)

#define CHECK_EQ_ERR(expr, expected)                                           \
  do {                                                                         \
    cudaError_t got_ = (expr);                                                 \
    if (got_ != (expected)) {                                                  \
      std::fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__,   \
                   __LINE__, #expr, cudaGetErrorName(got_),                    \
                   cudaGetErrorName(expected));                                \
      ++testFailures;                                                          \
    }                                                                          \
  } while (0)

#define CHECK_OK(expr) CHECK_EQ_ERR(expr, cudaSuccess)

/// The fat-binary wrapper clang emits, pointing at a respec module.
struct TestFatBinary {
  uint32_t magic = RESPEC_FATBIN_WRAPPER_MAGIC;
  uint32_t version = 1;
  const void *data;
  void *unused = nullptr;
};

/// Registers `module` as a translation unit's device code.
inline void **registerModule(TestFatBinary &wrapper) {
  void **handle = __cudaRegisterFatBinary(&wrapper);
  __cudaRegisterFatBinaryEnd(handle);
  return handle;
}

inline void registerKernel(void **handle, const void *hostStub,
                           const char *name) {
  __cudaRegisterFunction(handle, static_cast<const char *>(hostStub),
                         const_cast<char *>(name), name, -1, nullptr, nullptr,
                         nullptr, nullptr, nullptr);
}

inline int finishTest(const char *name) {
  if (testFailures)
    std::fprintf(stderr, "%s: %d check(s) failed\n", name, testFailures);
  else
    std::printf("%s: all checks passed\n", name);
  return testFailures ? 1 : 0;
}

#endif // RESPEC_TEST_RUNTIME_RUNTIMETEST_H
