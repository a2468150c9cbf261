//===- ModuleRegistry.h - Kernels and device variables of the program -----===//
//
// Clang's CUDA module constructors register each translation unit's device
// code (__cudaRegisterFatBinary), its kernels (__cudaRegisterFunction: host
// stub -> device name) and its device variables (__cudaRegisterVar: host
// shadow -> device name). For respec the "fat binary" is a respec_module table
// (abi.h) holding each kernel's launch function and each variable's storage,
// or, for programs built for NVIDIA GPUs, a respec_gpu_module that wraps such
// a table together with the PTX of its kernels. Both runtimes share this
// registry; each refuses the kind of module it cannot run.
// This registry answers "which kernel does this host stub launch" and "where
// is the device copy of this symbol", resolving names lazily on first use.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_MODULEREGISTRY_H
#define RESPEC_RUNTIME_COMMON_MODULEREGISTRY_H

#include "respec_rt/abi.h"

#include <cstddef>
#include <cstdint>

/// clang's registration of a device variable (host shadow -> device name).
extern "C" void __cudaRegisterVar(void **handle, char *hostVar,
                                  char *deviceAddress, const char *deviceName,
                                  int ext, size_t size, int constant,
                                  int global);

/// clang's registration of a texture reference (a texture<> variable):
/// host variable -> the device variable holding its texture object.
extern "C" void __cudaRegisterTexture(void **handle, const void *hostVar,
                                      const void *deviceAddress,
                                      const char *deviceName, int textureType,
                                      int normalized, int ext);

namespace respec {

/// A kernel as the runtime launches it.
struct KernelInfo {
  const respec_kernel_entry *entry = nullptr;
  /// The GPU module the kernel came from; null for a kernel built for the
  /// CPU.
  const respec_gpu_module *gpuModule = nullptr;
  /// Largest dynamic shared memory a launch may request; CUDA's default is
  /// 48 KiB minus the static shared memory, raised per kernel with
  /// cudaFuncAttributeMaxDynamicSharedMemorySize.
  uint64_t maxDynamicSharedBytes = 0;
  int preferredSharedCarveout = -1;
};

/// Where a host stub's kernel is: null when `hostStub` was never registered
/// or its module has no kernel of that name. Sets `*foreignModule` when the
/// stub belongs to a fat binary that is not a respec module (GPU code).
const KernelInfo *lookupKernel(const void *hostStub, bool *foreignModule);

/// Raises the dynamic shared memory limit of the kernel of `hostStub`.
bool setKernelMaxDynamicShared(const void *hostStub, uint64_t bytes);
bool setKernelSharedCarveout(const void *hostStub, int carveout);

/// The device copy of a registered __device__/__constant__ variable, given
/// either its host shadow's address or the device copy's address.
struct SymbolInfo {
  /// The device copy's storage (CPU modules only: a GPU module's copy lives
  /// in the loaded GPU module, found by `deviceName`).
  void *deviceAddress = nullptr;
  size_t size = 0;
  const respec_gpu_module *gpuModule = nullptr;
  const char *deviceName = nullptr;
  /// For a texture reference (__cudaRegisterTexture): its texture type
  /// (cudaTextureType1D, ...) and whether fetches read integer texels as
  /// normalized floats; 0 and false for other variables.
  int textureType = 0;
  bool normalizedFloatReads = false;
};
bool lookupSymbol(const void *symbol, SymbolInfo *info);

} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_MODULEREGISTRY_H
