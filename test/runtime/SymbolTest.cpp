//===- SymbolTest.cpp - __device__/__constant__ variables by host shadow --===//

#include "RuntimeTest.h"

namespace {

// The device copies, initialized like a compiled program's static data.
float deviceCoefficients[4] = {1.0f, 2.0f, 3.0f, 4.0f};
int deviceCounter = 7;
// The host shadows clang emits for `__constant__ float coefficients[4]` and
// `__device__ int counter`.
float hostCoefficients[4];
int hostCounter;

const respec_var_entry vars[] = {
    {"coefficients", deviceCoefficients, sizeof(deviceCoefficients)},
    {"_Z7counter", &deviceCounter, sizeof(deviceCounter)},
};
const respec_module module = {
    RESPEC_MODULE_MAGIC, RESPEC_MODULE_VERSION, 0, 2, nullptr, vars};

} // namespace

int main() {
  TestFatBinary wrapper;
  wrapper.data = &module;
  void **handle = registerModule(wrapper);
  __cudaRegisterVar(handle, reinterpret_cast<char *>(hostCoefficients),
                    const_cast<char *>("coefficients"), "coefficients", 0,
                    sizeof(hostCoefficients), 1, 0);
  __cudaRegisterVar(handle, reinterpret_cast<char *>(&hostCounter),
                    const_cast<char *>("_Z7counter"), "_Z7counter", 0,
                    sizeof(hostCounter), 0, 0);

  float values[4] = {0};
  CHECK_OK(cudaMemcpyFromSymbol(values, hostCoefficients, sizeof(values)));
  CHECK(values[3] == 4.0f); // the static initializer's value
  float replacement[2] = {10.0f, 20.0f};
  CHECK_OK(cudaMemcpyToSymbol(hostCoefficients, replacement,
                              sizeof(replacement), 2 * sizeof(float)));
  CHECK(deviceCoefficients[2] == 10.0f && deviceCoefficients[3] == 20.0f);
  CHECK(hostCoefficients[2] == 0.0f); // the shadow is not the device copy

  int counter = 0;
  CHECK_OK(cudaMemcpyFromSymbolAsync(&counter, hostCounter, sizeof(int), 0,
                                     cudaMemcpyDeviceToHost, nullptr));
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(counter == 7);

  void *address = nullptr;
  size_t size = 0;
  CHECK_OK(cudaGetSymbolAddress(&address, hostCounter));
  CHECK(address == &deviceCounter);
  CHECK_OK(cudaGetSymbolSize(&size, hostCoefficients));
  CHECK(size == sizeof(deviceCoefficients));

  int unknown = 0;
  CHECK_EQ_ERR(cudaMemcpyToSymbol(unknown, &counter, sizeof(int)),
               cudaErrorInvalidSymbol);
  CHECK_EQ_ERR(cudaMemcpyToSymbol(hostCoefficients, values, sizeof(values), 4),
               cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaMemcpyToSymbol(hostCounter, &counter, sizeof(int), 0,
                                  cudaMemcpyDeviceToHost),
               cudaErrorInvalidMemcpyDirection);
  return finishTest("SymbolTest");
}
