//===- ModuleRegistry.cpp - __cudaRegister* and kernel/symbol lookup ------===//

#include "ModuleRegistry.h"

#include "Diagnostics.h"

#include <cuda_runtime_api.h>

#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace respec {
namespace {

/// The 16-byte wrapper clang emits around each translation unit's device code.
struct FatBinaryWrapper {
  uint32_t magic;
  uint32_t version;
  const void *data;
  void *unused;
};

/// One translation unit's device code; `table` is null for a fat binary that
/// respec did not produce (GPU code of another compiler). `gpu` is set for
/// modules built for NVIDIA GPUs, whose `table` is then `gpu->module`.
struct RegisteredModule {
  const respec_module *table = nullptr;
  const respec_gpu_module *gpu = nullptr;
};

struct KernelRecord {
  RegisteredModule *module;
  std::string deviceName;
  bool resolved = false;
  KernelInfo info;
};

struct SymbolRecord {
  RegisteredModule *module;
  std::string deviceName;
  size_t size;
  bool resolved = false;
  SymbolInfo info;
};

struct Registry {
  std::mutex mutex;
  std::deque<RegisteredModule> modules; // stable addresses: handles point here
  std::unordered_map<const void *, KernelRecord> kernels; // by host stub
  std::unordered_map<const void *, SymbolRecord> symbols; // by host shadow
};

Registry &registry() {
  // Never destroyed: module destructors and late launches may still use it
  // while static objects are torn down at exit.
  static Registry *instance = new Registry;
  return *instance;
}

const respec_kernel_entry *findKernelEntry(const respec_module *table,
                                           const std::string &name) {
  if (!table)
    return nullptr;
  for (uint32_t i = 0; i < table->numKernels; ++i)
    if (name == table->kernels[i].name)
      return &table->kernels[i];
  return nullptr;
}

const respec_var_entry *findVarEntry(const respec_module *table,
                                     const std::string &name) {
  if (!table)
    return nullptr;
  for (uint32_t i = 0; i < table->numVars; ++i)
    if (name == table->vars[i].name)
      return &table->vars[i];
  return nullptr;
}

/// Looks in the registering module first, then in every module, because with
/// separate compilation a kernel may be registered by one translation unit
/// and defined in another; registration order across units is unspecified,
/// hence the lookup happens at first use rather than at registration.
template <typename Entry, typename Find>
const Entry *findAnywhere(Registry &reg, RegisteredModule *home,
                          const std::string &name, Find find,
                          const respec_gpu_module **gpu) {
  if (const Entry *entry = find(home->table, name)) {
    *gpu = home->gpu;
    return entry;
  }
  for (RegisteredModule &module : reg.modules)
    if (const Entry *entry = find(module.table, name)) {
      *gpu = module.gpu;
      return entry;
    }
  return nullptr;
}

KernelRecord *findKernelRecord(Registry &reg, const void *hostStub) {
  auto it = reg.kernels.find(hostStub);
  if (it == reg.kernels.end())
    return nullptr;
  KernelRecord &record = it->second;
  if (!record.resolved) {
    record.info.entry = findAnywhere<respec_kernel_entry>(
        reg, record.module, record.deviceName, findKernelEntry,
        &record.info.gpuModule);
    if (record.info.entry) {
      uint64_t staticBytes = record.info.entry->staticSharedBytes;
      record.info.maxDynamicSharedBytes =
          staticBytes < 49152 ? 49152 - staticBytes : 0;
    }
    record.resolved = record.info.entry != nullptr;
  }
  return &record;
}

} // namespace

const KernelInfo *lookupKernel(const void *hostStub, bool *foreignModule) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  *foreignModule = false;
  KernelRecord *record = findKernelRecord(reg, hostStub);
  if (!record)
    return nullptr;
  *foreignModule = record->module->table == nullptr;
  return record->resolved ? &record->info : nullptr;
}

bool setKernelMaxDynamicShared(const void *hostStub, uint64_t bytes) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  KernelRecord *record = findKernelRecord(reg, hostStub);
  if (!record || !record->resolved)
    return false;
  record->info.maxDynamicSharedBytes = bytes;
  return true;
}

bool setKernelSharedCarveout(const void *hostStub, int carveout) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  KernelRecord *record = findKernelRecord(reg, hostStub);
  if (!record || !record->resolved)
    return false;
  record->info.preferredSharedCarveout = carveout;
  return true;
}

bool lookupSymbol(const void *symbol, SymbolInfo *info) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto it = reg.symbols.find(symbol);
  if (it != reg.symbols.end()) {
    SymbolRecord &record = it->second;
    if (!record.resolved) {
      const respec_gpu_module *gpu = nullptr;
      const respec_var_entry *entry = findAnywhere<respec_var_entry>(
          reg, record.module, record.deviceName, findVarEntry, &gpu);
      // The texture fields were set at registration.
      if (entry) {
        record.info.deviceAddress = gpu ? nullptr : entry->address;
        record.info.size = static_cast<size_t>(entry->size);
        record.info.gpuModule = gpu;
        record.info.deviceName = entry->name;
      }
      record.resolved = entry != nullptr;
    }
    *info = record.info;
    return record.resolved;
  }
  // Also accept the device copy's own address (from cudaGetSymbolAddress).
  for (RegisteredModule &module : reg.modules) {
    // A GPU module's variable entries have no host-visible address.
    if (!module.table || module.gpu)
      continue;
    for (uint32_t i = 0; i < module.table->numVars; ++i) {
      const respec_var_entry &var = module.table->vars[i];
      if (var.address == symbol) {
        *info = {var.address, static_cast<size_t>(var.size), nullptr, var.name};
        return true;
      }
    }
  }
  return false;
}

} // namespace respec

using namespace respec;

extern "C" void **__cudaRegisterFatBinary(void *wrapperPtr) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  reg.modules.emplace_back();
  RegisteredModule &module = reg.modules.back();
  const auto *wrapper = static_cast<const FatBinaryWrapper *>(wrapperPtr);
  const void *data = wrapper && wrapper->magic == RESPEC_FATBIN_WRAPPER_MAGIC
                         ? wrapper->data
                         : nullptr;
  // Both tables start with a 32-bit magic, which tells them apart.
  uint32_t magic = 0;
  if (data)
    std::memcpy(&magic, data, sizeof(magic));
  const auto *table = static_cast<const respec_module *>(data);
  const auto *gpu = static_cast<const respec_gpu_module *>(data);
  if (magic == RESPEC_MODULE_MAGIC && table->version == RESPEC_MODULE_VERSION) {
    module.table = table;
  } else if (magic == RESPEC_GPU_MODULE_MAGIC &&
             gpu->version == RESPEC_GPU_MODULE_VERSION && gpu->module &&
             gpu->module->magic == RESPEC_MODULE_MAGIC &&
             gpu->module->version == RESPEC_MODULE_VERSION) {
    module.gpu = gpu;
    module.table = gpu->module;
  } else if (verboseErrors())
    warnAlways("__cudaRegisterFatBinary: not a respec module (GPU code "
               "compiled by another compiler?); its kernels cannot run");
  return reinterpret_cast<void **>(&module);
}

extern "C" void __cudaRegisterFatBinaryEnd(void **) {}

extern "C" void __cudaUnregisterFatBinary(void **) {
  // Runs at exit: let queued work (and its device printf output) finish
  // while the program's code and data are still intact.
  cudaDeviceSynchronize();
}

extern "C" void __cudaRegisterFunction(void **handle, const char *hostFun,
                                       char *, const char *deviceName, int,
                                       uint3 *, uint3 *, dim3 *, dim3 *,
                                       int *) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  KernelRecord record{reinterpret_cast<RegisteredModule *>(handle), deviceName};
  reg.kernels.insert_or_assign(static_cast<const void *>(hostFun),
                               std::move(record));
}

extern "C" void __cudaRegisterVar(void **handle, char *hostVar, char *,
                                  const char *deviceName, int, size_t size, int,
                                  int) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  SymbolRecord record{reinterpret_cast<RegisteredModule *>(handle), deviceName,
                      size};
  reg.symbols.insert_or_assign(static_cast<const void *>(hostVar),
                               std::move(record));
}

extern "C" void __cudaRegisterTexture(void **handle, const void *hostVar,
                                      const void *, const char *deviceName,
                                      int textureType, int normalized, int) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  SymbolRecord record{reinterpret_cast<RegisteredModule *>(handle), deviceName,
                      sizeof(cudaTextureObject_t)};
  record.info.textureType = textureType;
  record.info.normalizedFloatReads = normalized != 0;
  reg.symbols.insert_or_assign(hostVar, std::move(record));
}

/// Host code reaches a __managed__ variable through a pointer that the
/// runtime sets; pointing it at the device copy makes host and device share
/// one object, which is what managed memory means on a CPU.
extern "C" void __cudaRegisterManagedVar(void **handle, void **hostVarPtr,
                                         char *, const char *deviceName, int,
                                         size_t size, int, int) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto *module = reinterpret_cast<RegisteredModule *>(handle);
  if (module->gpu) {
    // The variable lives in the GPU module, which is loaded only at the
    // first launch; host code would read the pointer before that.
    warnAlways("__managed__ variable '%s': managed variables are not "
               "supported for NVIDIA GPUs yet",
               deviceName);
    return;
  }
  const respec_var_entry *entry = findVarEntry(module->table, deviceName);
  if (!entry) {
    warnAlways("__managed__ variable '%s' has no device copy in its module; "
               "host accesses to it are unsupported",
               deviceName);
    return;
  }
  *hostVarPtr = entry->address;
  SymbolRecord record{module, deviceName, size};
  record.resolved = true;
  record.info = {entry->address, static_cast<size_t>(entry->size), nullptr,
                 entry->name};
  reg.symbols.insert_or_assign(static_cast<const void *>(hostVarPtr),
                               std::move(record));
}
