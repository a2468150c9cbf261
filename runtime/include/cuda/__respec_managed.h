//===- __respec_managed.h - __managed__ for respec -------------*- C++ -*-===//
//
// clang honours the `managed` attribute only when compiling HIP, and ignores
// it (with a warning) in CUDA, which would leave a `__managed__` variable a
// host variable that kernels cannot name. respec makes it a device variable
// with an annotation instead; the back end then gives host code and kernels
// the same object. The driver force-includes this header after the CUDA
// toolkit's headers; respec's own host_defines.h includes it.
//
//===----------------------------------------------------------------------===//

#if defined(__CUDA__) && defined(__clang__)
#undef __managed__
#define __managed__ __device__ __attribute__((annotate("respec.managed")))
#endif
