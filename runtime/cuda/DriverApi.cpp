//===- DriverApi.cpp - Loading libcuda at run time ------------------------===//

#include "DriverApi.h"

#include <cstdlib>
#include <dlfcn.h>

namespace respec {
namespace gpu {

bool loadDriverApi(DriverApi &api, std::string &reason) {
  const char *override = std::getenv("RESPEC_CUDA_DRIVER");
  const char *path = override && override[0] ? override : "libcuda.so.1";
  // RTLD_LOCAL: the driver's symbols must not interpose on the program's.
  // The handle is never closed: the driver stays loaded until exit, as the
  // contexts and allocations made through it do.
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    reason = std::string("the CUDA driver (") + path +
             ") could not be loaded: " + (error ? error : "unknown error");
    return false;
  }
#define RESPEC_DRIVER_RESOLVE(MEMBER, SYMBOL, PARAMS)                          \
  api.MEMBER =                                                                 \
      reinterpret_cast<decltype(api.MEMBER)>(dlsym(library, #SYMBOL));         \
  if (!api.MEMBER) {                                                           \
    reason = std::string("the CUDA driver (") + path +                         \
             ") lacks the entry point " #SYMBOL "; a newer driver is needed";  \
    return false;                                                              \
  }
  RESPEC_DRIVER_FUNCTIONS(RESPEC_DRIVER_RESOLVE)
#undef RESPEC_DRIVER_RESOLVE
#define RESPEC_DRIVER_RESOLVE_OPTIONAL(MEMBER, SYMBOL, PARAMS)                 \
  api.MEMBER = reinterpret_cast<decltype(api.MEMBER)>(dlsym(library, #SYMBOL));
  RESPEC_DRIVER_GRAPH_FUNCTIONS(RESPEC_DRIVER_RESOLVE_OPTIONAL)
#undef RESPEC_DRIVER_RESOLVE_OPTIONAL
  return true;
}

const char *missingGraphEntryPoint(const DriverApi &api) {
#define RESPEC_DRIVER_CHECK_PRESENT(MEMBER, SYMBOL, PARAMS)                    \
  if (!api.MEMBER)                                                             \
    return #SYMBOL;
  RESPEC_DRIVER_GRAPH_FUNCTIONS(RESPEC_DRIVER_CHECK_PRESENT)
#undef RESPEC_DRIVER_CHECK_PRESENT
  return nullptr;
}

std::string describeDriverResult(const DriverApi &api, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.getErrorName)
    api.getErrorName(result, &name);
  if (api.getErrorString)
    api.getErrorString(result, &text);
  std::string description = name ? name : "CUresult " + std::to_string(result);
  if (text)
    description += std::string(" (") + text + ")";
  return description;
}

} // namespace gpu
} // namespace respec
