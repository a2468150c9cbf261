//===- GpuModuleOnCpuTest.cpp - Objects for NVIDIA GPUs on the CPU runtime ===//
//
// A program built with --target=nvptx but linked with the CPU runtime
// registers respec_gpu_modules; their kernels and variables must fail with
// a clear error rather than run host-side launch functions as CPU kernels.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

namespace {

bool launched = false;

void gpuLaunch(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
               uint64_t, void **) {
  launched = true;
}

const char ptx[] = ".version 8.0\n.target sm_80\n.visible .entry _Z1kv()\n"
                   "{\n\tret;\n}\n";
const respec_kernel_entry kernels[] = {
    {"_Z1kv", gpuLaunch, 0, 0, 0, 0, nullptr}};
const respec_var_entry vars[] = {{"counter", nullptr, 4}};
const respec_module table = {
    RESPEC_MODULE_MAGIC, RESPEC_MODULE_VERSION, 1, 1, kernels, vars};
const respec_gpu_module gpuModule = {RESPEC_GPU_MODULE_MAGIC,
                                     RESPEC_GPU_MODULE_VERSION,
                                     RESPEC_GPU_IMAGE_PTX,
                                     0,
                                     &table,
                                     ptx,
                                     sizeof(ptx),
                                     "sm_80"};

void kernelStub() {}
int hostCounter;

} // namespace

int main() {
  TestFatBinary wrapper;
  wrapper.data = &gpuModule;
  void **handle = registerModule(wrapper);
  registerKernel(handle, reinterpret_cast<const void *>(kernelStub), "_Z1kv");
  __cudaRegisterVar(handle, reinterpret_cast<char *>(&hostCounter),
                    const_cast<char *>("counter"), "counter", 0,
                    sizeof(hostCounter), 0, 0);
  CHECK_EQ_ERR(cudaLaunchKernel(reinterpret_cast<const void *>(kernelStub),
                                dim3(1), dim3(1), nullptr, 0, nullptr),
               cudaErrorNoKernelImageForDevice);
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(!launched);
  int value = 1;
  CHECK_EQ_ERR(cudaMemcpyToSymbol(hostCounter, &value, sizeof(value)),
               cudaErrorInvalidSymbol);
  return finishTest("GpuModuleOnCpuTest");
}
