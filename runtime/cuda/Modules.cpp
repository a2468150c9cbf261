//===- Modules.cpp - Loading respec's PTX into device contexts ------------===//

#include "Modules.h"

#include "../common/Diagnostics.h"
#include "Context.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace respec {
namespace gpu {

struct LoadedModule {
  CUmodule module = nullptr;
  std::mutex mutex; // guards `functions`
  std::unordered_map<std::string, std::unique_ptr<GpuFunction>> functions;
};

namespace {

struct ModuleTable {
  std::mutex mutex;
  std::map<std::pair<const respec_gpu_module *, int>,
           std::unique_ptr<LoadedModule>>
      loaded;
};

ModuleTable &modules() {
  // Never destroyed: kernels may still be launched while statics are torn
  // down at exit, and the driver unloads modules with their context anyway.
  static ModuleTable *instance = new ModuleTable;
  return *instance;
}

/// Trims the NUL padding and trailing newlines of a JIT log.
std::string trimLog(const char *log) {
  std::string text(log);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

} // namespace

cudaError_t loadModule(const respec_gpu_module *module, const char *call,
                       LoadedModule **loaded) {
  ModuleTable &table = modules();
  int device = currentDevice();
  // One lock around the load: concurrent first launches of a module wait
  // for one JIT compilation instead of running several.
  std::lock_guard<std::mutex> lock(table.mutex);
  std::unique_ptr<LoadedModule> &slot = table.loaded[{module, device}];
  if (slot) {
    *loaded = slot.get();
    return cudaSuccess;
  }
  if (module->imageKind != RESPEC_GPU_IMAGE_PTX || !module->image)
    return reportError(cudaErrorInvalidKernelImage, call,
                       "module image of kind %u is not PTX", module->imageKind);
  static constexpr unsigned logBytes = 16384;
  auto errorLog = std::make_unique<char[]>(logBytes);
  auto infoLog = std::make_unique<char[]>(logBytes);
  errorLog[0] = infoLog[0] = '\0';
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  // Size options are passed by value in the pointer-sized slot, as the
  // driver API specifies.
  void *values[] = {errorLog.get(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(logBytes)),
                    infoLog.get(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(logBytes))};
  auto result = std::make_unique<LoadedModule>();
  // The cubin built for the program's architecture first: no JIT delay.
  // A GPU of another architecture refuses it, and the PTX is JIT-compiled.
  if (module->cubin && module->cubinSize) {
    CUresult status = driver().moduleLoadDataEx(&result->module, module->cubin,
                                                0, nullptr, nullptr);
    if (status == CUDA_SUCCESS) {
      slot = std::move(result);
      *loaded = slot.get();
      return cudaSuccess;
    }
    if (status != CUDA_ERROR_NO_BINARY_FOR_GPU &&
        status != CUDA_ERROR_INVALID_IMAGE)
      return reportError(toRuntimeError(status), call,
                         "cuModuleLoadDataEx (cubin for %s) failed: %s",
                         module->gpuArch ? module->gpuArch : "unknown",
                         describeDriverResult(driver(), status).c_str());
  }
  CUresult status = driver().moduleLoadDataEx(&result->module, module->image, 4,
                                              options, values);
  if (status != CUDA_SUCCESS) {
    errorLog[logBytes - 1] = '\0';
    std::string log = trimLog(errorLog.get());
    // A JIT failure means respec produced PTX this driver or GPU cannot take
    // (too new a PTX version, wrong architecture): always worth showing.
    warnAlways("loading the GPU code (PTX for %s) failed: %s%s%s",
               module->gpuArch ? module->gpuArch : "unknown architecture",
               describeDriverResult(driver(), status).c_str(),
               log.empty() ? "" : "\n", log.c_str());
    cudaError_t error = toRuntimeError(status);
    if (error == cudaErrorUnknown)
      error = cudaErrorInvalidPtx;
    return reportError(error, call, "cuModuleLoadDataEx failed");
  }
  slot = std::move(result);
  *loaded = slot.get();
  return cudaSuccess;
}

cudaError_t findFunction(LoadedModule *loaded, const char *name,
                         const char *call, GpuFunction **function) {
  std::lock_guard<std::mutex> lock(loaded->mutex);
  std::unique_ptr<GpuFunction> &slot = loaded->functions[name];
  if (!slot) {
    auto found = std::make_unique<GpuFunction>();
    CUresult status =
        driver().moduleGetFunction(&found->function, loaded->module, name);
    if (status != CUDA_SUCCESS) {
      loaded->functions.erase(name);
      return reportError(status == CUDA_ERROR_NOT_FOUND
                             ? cudaErrorInvalidDeviceFunction
                             : toRuntimeError(status),
                         call, "GPU kernel '%s': %s", name,
                         describeDriverResult(driver(), status).c_str());
    }
    driver().funcGetAttribute(&found->staticSharedBytes,
                              CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                              found->function);
    slot = std::move(found);
  }
  *function = slot.get();
  return cudaSuccess;
}

cudaError_t findGlobal(LoadedModule *loaded, const char *name, const char *call,
                       CUdeviceptr *address, size_t *bytes) {
  CUresult status =
      driver().moduleGetGlobal(address, bytes, loaded->module, name);
  if (status != CUDA_SUCCESS)
    return reportError(status == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidSymbol
                                                      : toRuntimeError(status),
                       call, "GPU variable '%s': %s", name,
                       describeDriverResult(driver(), status).c_str());
  return cudaSuccess;
}

void forgetModules(int device) {
  ModuleTable &table = modules();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (auto it = table.loaded.begin(); it != table.loaded.end();) {
    if (it->first.second == device)
      it = table.loaded.erase(it);
    else
      ++it;
  }
}

} // namespace gpu
} // namespace respec
