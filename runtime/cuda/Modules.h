//===- Modules.h - GPU modules loaded from respec's PTX -------------------===//
//
// Each respec_gpu_module's PTX is loaded into a device's primary context the
// first time a kernel or variable of it is used on that device; functions
// and globals are looked up once and cached.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CUDA_MODULES_H
#define RESPEC_RUNTIME_CUDA_MODULES_H

#include "DriverApi.h"

#include "respec_rt/abi.h"

#include <cuda_runtime_api.h>

#include <atomic>

namespace respec {
namespace gpu {

struct LoadedModule;

/// Loads `module` into the current device's context (once). On failure the
/// error, with the JIT compiler's log, is recorded as `call`'s.
cudaError_t loadModule(const respec_gpu_module *module, const char *call,
                       LoadedModule **loaded);

/// A kernel of a loaded module and what the runtime knows about it.
struct GpuFunction {
  CUfunction function = nullptr;
  int staticSharedBytes = 0;
  /// The dynamic shared memory limit last set on the function (launches on
  /// several threads may raise it).
  std::atomic<uint64_t> maxDynamicSharedBytes{0};
};

/// The PTX entry `name` of `loaded` (looked up once).
cudaError_t findFunction(LoadedModule *loaded, const char *name,
                         const char *call, GpuFunction **function);

/// The device address and size of the global `name` of `loaded`.
cudaError_t findGlobal(LoadedModule *loaded, const char *name, const char *call,
                       CUdeviceptr *address, size_t *bytes);

/// Forgets the modules loaded on `device` (its context was reset).
void forgetModules(int device);

} // namespace gpu
} // namespace respec

#endif // RESPEC_RUNTIME_CUDA_MODULES_H
