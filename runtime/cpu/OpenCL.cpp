//===- OpenCL.cpp - Host API for OpenCL C kernels (respec/opencl.h) -------===//
//
// Each OpenCL C object registers its respec_cl_program from a constructor.
// A respec_cl_kernel holds the argument values set so far; an enqueue checks
// the NDRange as an OpenCL implementation would, lays the `__local` pointer
// arguments out in the work-group's dynamic shared memory, appends the
// hidden parameters (work dimension, global offset) and runs the grid on the
// calling thread's OpenMP team.
//
//===----------------------------------------------------------------------===//

#include "respec/opencl.h"
#include "respec_rt/abi.h"

#include "DeviceProperties.h"
#include "KernelFaults.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

using namespace respec::cpu;

namespace {

std::mutex registryMutex;

std::vector<const respec_cl_program *> &programs() {
  static std::vector<const respec_cl_program *> registered;
  return registered;
}

/// Prints "respec: <call>: <message>" and returns `status`.
int fail(int status, const char *call, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
int fail(int status, const char *call, const char *format, ...) {
  std::fprintf(stderr, "respec: %s: %s: ", call,
               respec_cl_status_string(status));
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  return status;
}

/// Offsets of `__local` arguments are aligned for any OpenCL C type.
constexpr uint64_t kLocalArgAlignment = 64;

} // namespace

/// Storage for one argument value, aligned for any OpenCL C type (the
/// launch code loads a float8 or double16 argument with its alignment).
struct alignas(64) ArgumentChunk {
  char bytes[64];
};

struct respec_cl_kernel {
  const respec_kernel_entry *entry = nullptr;
  const respec_cl_kernel_info *info = nullptr;
  /// Value bytes of each set argument (by-value parameters).
  std::vector<std::vector<ArgumentChunk>> values;
  /// Bytes of local memory of each `__local` pointer argument.
  std::vector<uint64_t> localBytes;
  std::vector<bool> isSet;
};

extern "C" void __respec_cl_register_program(const respec_cl_program *program) {
  if (!program || program->magic != RESPEC_CL_PROGRAM_MAGIC ||
      !program->module || program->module->magic != RESPEC_MODULE_MAGIC) {
    std::fprintf(stderr, "respec: an OpenCL C object was built by an "
                         "incompatible respec; rebuild it\n");
    return;
  }
  std::lock_guard<std::mutex> lock(registryMutex);
  programs().push_back(program);
}

static const respec_kernel_entry *findEntry(const respec_module &module,
                                            const char *name) {
  for (uint32_t i = 0; i < module.numKernels; ++i)
    if (std::strcmp(module.kernels[i].name, name) == 0)
      return &module.kernels[i];
  return nullptr;
}

extern "C" respec_cl_kernel *respec_cl_create_kernel(const char *name,
                                                     int *status) {
  int ignored;
  int &result = status ? *status : ignored;
  constexpr const char *call = "respec_cl_create_kernel";
  if (!name) {
    result = fail(RESPEC_CL_INVALID_VALUE, call, "null kernel name");
    return nullptr;
  }
  const respec_cl_program *found = nullptr;
  const respec_cl_kernel_info *info = nullptr;
  {
    std::lock_guard<std::mutex> lock(registryMutex);
    for (const respec_cl_program *program : programs())
      for (uint32_t i = 0; i < program->numKernels; ++i) {
        if (std::strcmp(program->kernels[i].name, name) != 0)
          continue;
        if (found) {
          result = fail(RESPEC_CL_INVALID_KERNEL_NAME, call,
                        "kernel '%s' is defined by more than one OpenCL C "
                        "source of the program",
                        name);
          return nullptr;
        }
        found = program;
        info = &program->kernels[i];
      }
  }
  const respec_kernel_entry *entry =
      found ? findEntry(*found->module, name) : nullptr;
  if (!entry || entry->numParams != info->numParams + RESPEC_CL_HIDDEN_PARAMS) {
    result = fail(RESPEC_CL_INVALID_KERNEL_NAME, call,
                  "no OpenCL C kernel named '%s' is linked into the program",
                  name);
    return nullptr;
  }
  auto *kernel = new (std::nothrow) respec_cl_kernel;
  if (!kernel) {
    result = RESPEC_CL_OUT_OF_HOST_MEMORY;
    return nullptr;
  }
  kernel->entry = entry;
  kernel->info = info;
  kernel->values.resize(info->numParams);
  kernel->localBytes.assign(info->numParams, 0);
  kernel->isSet.assign(info->numParams, false);
  result = RESPEC_CL_SUCCESS;
  return kernel;
}

extern "C" void respec_cl_release_kernel(respec_cl_kernel *kernel) {
  delete kernel;
}

extern "C" int respec_cl_set_kernel_arg(respec_cl_kernel *kernel,
                                        unsigned index, size_t size,
                                        const void *value) {
  constexpr const char *call = "respec_cl_set_kernel_arg";
  if (!kernel)
    return fail(RESPEC_CL_INVALID_KERNEL, call, "null kernel");
  const char *name = kernel->info->name;
  if (index >= kernel->info->numParams)
    return fail(RESPEC_CL_INVALID_ARG_INDEX, call,
                "kernel '%s' has %u parameters, index %u is out of range",
                name, kernel->info->numParams, index);
  if (kernel->info->paramIsLocal[index]) {
    if (value)
      return fail(RESPEC_CL_INVALID_ARG_VALUE, call,
                  "argument %u of '%s' is a __local pointer: pass its size "
                  "in bytes and a null value",
                  index, name);
    if (size == 0)
      return fail(RESPEC_CL_INVALID_ARG_SIZE, call,
                  "argument %u of '%s' is a __local pointer of 0 bytes",
                  index, name);
    kernel->localBytes[index] = size;
  } else {
    size_t expected = kernel->entry->paramSizes[index];
    if (size != expected)
      return fail(RESPEC_CL_INVALID_ARG_SIZE, call,
                  "argument %u of '%s' takes %zu bytes, got %zu", index, name,
                  expected, size);
    // As in OpenCL, a null value sets a buffer argument to a null pointer.
    std::vector<ArgumentChunk> chunks((size + sizeof(ArgumentChunk) - 1) /
                                      sizeof(ArgumentChunk));
    std::memset(chunks.data(), 0, chunks.size() * sizeof(ArgumentChunk));
    if (value)
      std::memcpy(chunks.data(), value, size);
    kernel->values[index] = std::move(chunks);
  }
  kernel->isSet[index] = true;
  return RESPEC_CL_SUCCESS;
}

/// The work-group size respec picks when the caller passes none: the
/// largest divisor of the global size up to 64 work-items along dimension
/// 0, one work-item along the others.
static size_t defaultLocalSize(unsigned dim, size_t global) {
  if (dim != 0)
    return 1;
  for (size_t size = 64; size > 1; --size)
    if (global % size == 0)
      return size;
  return 1;
}

/// Checks the NDRange; fills the grid and block of the launch.
static int checkNDRange(const char *call, const char *name, unsigned workDim,
                        const size_t *globalSize, const size_t *localSize,
                        uint32_t grid[3], uint32_t block[3]) {
  if (workDim < 1 || workDim > 3)
    return fail(RESPEC_CL_INVALID_WORK_DIMENSION, call,
                "work_dim %u of '%s' is not 1, 2 or 3", workDim, name);
  if (!globalSize)
    return fail(RESPEC_CL_INVALID_GLOBAL_WORK_SIZE, call,
                "null global size for '%s'", name);
  const cudaDeviceProp &device = deviceProperties();
  uint64_t groupItems = 1;
  for (unsigned d = 0; d < 3; ++d) {
    size_t global = d < workDim ? globalSize[d] : 1;
    size_t local = d >= workDim ? 1
                   : localSize  ? localSize[d]
                                : defaultLocalSize(d, global);
    if (global == 0)
      return fail(RESPEC_CL_INVALID_GLOBAL_WORK_SIZE, call,
                  "global size %u of '%s' is 0", d, name);
    if (local == 0 || global % local != 0)
      return fail(RESPEC_CL_INVALID_WORK_GROUP_SIZE, call,
                  "global size %zu of dimension %u of '%s' is not a "
                  "multiple of the work-group size %zu",
                  global, d, name, local);
    if (local > size_t(device.maxThreadsDim[d]))
      return fail(RESPEC_CL_INVALID_WORK_GROUP_SIZE, call,
                  "work-group size %zu of dimension %u of '%s' exceeds %d",
                  local, d, name, device.maxThreadsDim[d]);
    size_t groups = global / local;
    if (groups > size_t(device.maxGridSize[d]))
      return fail(RESPEC_CL_INVALID_GLOBAL_WORK_SIZE, call,
                  "%zu work-groups along dimension %u of '%s' exceed %d",
                  groups, d, name, device.maxGridSize[d]);
    groupItems *= local;
    grid[d] = uint32_t(groups);
    block[d] = uint32_t(local);
  }
  if (groupItems > uint64_t(device.maxThreadsPerBlock))
    return fail(RESPEC_CL_INVALID_WORK_GROUP_SIZE, call,
                "work-groups of %llu work-items for '%s' exceed %d",
                (unsigned long long)groupItems, name,
                device.maxThreadsPerBlock);
  return RESPEC_CL_SUCCESS;
}

extern "C" int respec_cl_enqueue_ndrange(respec_cl_kernel *kernel,
                                         unsigned workDim,
                                         const size_t *globalOffset,
                                         const size_t *globalSize,
                                         const size_t *localSize) {
  constexpr const char *call = "respec_cl_enqueue_ndrange";
  if (!kernel)
    return fail(RESPEC_CL_INVALID_KERNEL, call, "null kernel");
  const respec_cl_kernel_info &info = *kernel->info;
  uint32_t grid[3], block[3];
  if (int status = checkNDRange(call, info.name, workDim, globalSize,
                                localSize, grid, block))
    return status;

  // Arguments in the launch function's order: the source's parameters
  // (each __local pointer as an offset), then the hidden ones.
  std::vector<uint64_t> localOffsets(info.numParams, 0);
  uint64_t dynamicBytes = 0;
  for (uint32_t i = 0; i < info.numParams; ++i) {
    if (!kernel->isSet[i])
      return fail(RESPEC_CL_INVALID_KERNEL_ARGS, call,
                  "argument %u of '%s' is not set", i, info.name);
    if (!info.paramIsLocal[i])
      continue;
    dynamicBytes = (dynamicBytes + kLocalArgAlignment - 1) /
                   kLocalArgAlignment * kLocalArgAlignment;
    localOffsets[i] = dynamicBytes;
    dynamicBytes += kernel->localBytes[i];
  }
  uint64_t localLimit = sharedMemPerBlockOptin;
  if (kernel->entry->staticSharedBytes + dynamicBytes > localLimit)
    return fail(RESPEC_CL_OUT_OF_RESOURCES, call,
                "'%s' needs %llu bytes of local memory per work-group, more "
                "than the %llu available",
                info.name,
                (unsigned long long)(kernel->entry->staticSharedBytes +
                                     dynamicBytes),
                (unsigned long long)localLimit);
  uint32_t hiddenWorkDim = workDim;
  uint64_t hiddenOffsets[3] = {0, 0, 0};
  for (unsigned d = 0; d < workDim && globalOffset; ++d)
    hiddenOffsets[d] = globalOffset[d];

  std::vector<void *> args;
  for (uint32_t i = 0; i < info.numParams; ++i)
    args.push_back(info.paramIsLocal[i]
                       ? static_cast<void *>(&localOffsets[i])
                       : static_cast<void *>(kernel->values[i].data()));
  args.push_back(&hiddenWorkDim);
  for (uint64_t &offset : hiddenOffsets)
    args.push_back(&offset);
  respec::cpu::KernelFaultScope faults(kernel->entry->name);
  kernel->entry->launch(grid[0], grid[1], grid[2], block[0], block[1],
                        block[2], dynamicBytes, args.data());
  return RESPEC_CL_SUCCESS;
}

extern "C" int respec_cl_enqueue_batch(respec_cl_kernel *kernel, size_t batch,
                                       size_t groupSize) {
  if (batch == 0 || groupSize == 0)
    return fail(RESPEC_CL_INVALID_GLOBAL_WORK_SIZE, "respec_cl_enqueue_batch",
                "a batch of %zu work-groups of %zu work-items is empty", batch,
                groupSize);
  size_t global = batch * groupSize;
  return respec_cl_enqueue_ndrange(kernel, 1, nullptr, &global, &groupSize);
}

extern "C" const char *respec_cl_status_string(int status) {
  switch (status) {
#define STATUS(name)                                                           \
  case name:                                                                   \
    return #name;
    STATUS(RESPEC_CL_SUCCESS)
    STATUS(RESPEC_CL_OUT_OF_RESOURCES)
    STATUS(RESPEC_CL_OUT_OF_HOST_MEMORY)
    STATUS(RESPEC_CL_INVALID_VALUE)
    STATUS(RESPEC_CL_INVALID_KERNEL_NAME)
    STATUS(RESPEC_CL_INVALID_KERNEL)
    STATUS(RESPEC_CL_INVALID_ARG_INDEX)
    STATUS(RESPEC_CL_INVALID_ARG_VALUE)
    STATUS(RESPEC_CL_INVALID_ARG_SIZE)
    STATUS(RESPEC_CL_INVALID_KERNEL_ARGS)
    STATUS(RESPEC_CL_INVALID_WORK_DIMENSION)
    STATUS(RESPEC_CL_INVALID_WORK_GROUP_SIZE)
    STATUS(RESPEC_CL_INVALID_GLOBAL_WORK_SIZE)
#undef STATUS
  }
  return "unknown status";
}
