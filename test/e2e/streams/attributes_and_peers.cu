// Runtime API calls of multi-GPU and tuning code that must work on respec's
// one CPU device: stream ids, devices and attributes (an L2 access policy
// window, the synchronization policy, the priority, copies between
// streams), cudaStreamAttachMemAsync on managed memory, peer queries (a
// device is not its own peer), cudaMemcpyPeerAsync, PCI bus ids,
// cudaInitDevice, cudaSetValidDevices, cudaCtxResetPersistingL2Cache and
// cudaFuncGetName. Built with the toolkit's headers and with respec's own.
// NVPTX: unsupported (__managed__ variables are a compile error for --target=nvptx)
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      printf("check failed at line %d: %s\n", __LINE__, #cond);               \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

__managed__ int managedCounter;

__global__ void increment(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

int main() {
  cudaStream_t a, b;
  CHECK(cudaStreamCreate(&a) == cudaSuccess);
  CHECK(cudaStreamCreateWithPriority(&b, cudaStreamNonBlocking, -1) ==
        cudaSuccess);

  // Ids are distinct; every stream is on device 0.
  unsigned long long idA = 0, idB = 0, idDefault = 0;
  CHECK(cudaStreamGetId(a, &idA) == cudaSuccess);
  CHECK(cudaStreamGetId(b, &idB) == cudaSuccess);
  CHECK(cudaStreamGetId(0, &idDefault) == cudaSuccess);
  CHECK(idA != idB && idA != idDefault && idB != idDefault);
  int device = -1;
  CHECK(cudaStreamGetDevice(a, &device) == cudaSuccess && device == 0);

  // An access policy window set on a stream reads back; copying attributes
  // carries it, and the priority, to another stream.
  int *data;
  const int n = 1000;
  CHECK(cudaMalloc(&data, n * sizeof(int)) == cudaSuccess);
  cudaStreamAttrValue window;
  memset(&window, 0, sizeof(window));
  window.accessPolicyWindow.base_ptr = data;
  window.accessPolicyWindow.num_bytes = n * sizeof(int);
  window.accessPolicyWindow.hitRatio = 0.6f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(a, cudaStreamAttributeAccessPolicyWindow,
                               &window) == cudaSuccess);
  cudaStreamAttrValue read;
  CHECK(cudaStreamGetAttribute(a, cudaStreamAttributeAccessPolicyWindow,
                               &read) == cudaSuccess);
  CHECK(read.accessPolicyWindow.base_ptr == data &&
        read.accessPolicyWindow.num_bytes == n * sizeof(int) &&
        read.accessPolicyWindow.hitRatio == 0.6f &&
        read.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting &&
        read.accessPolicyWindow.missProp == cudaAccessPropertyStreaming);
  CHECK(cudaStreamGetAttribute(b, cudaStreamAttributeAccessPolicyWindow,
                               &read) == cudaSuccess);
  CHECK(read.accessPolicyWindow.num_bytes == 0);
  CHECK(cudaStreamGetAttribute(b, cudaStreamAttributePriority, &read) ==
        cudaSuccess);
  CHECK(read.priority == -1);
  CHECK(cudaStreamGetAttribute(a, cudaStreamAttributeSynchronizationPolicy,
                               &read) == cudaSuccess);
  CHECK(read.syncPolicy == cudaSyncPolicyAuto);
  CHECK(cudaStreamCopyAttributes(b, a) == cudaSuccess);
  CHECK(cudaStreamGetAttribute(b, cudaStreamAttributeAccessPolicyWindow,
                               &read) == cudaSuccess);
  CHECK(read.accessPolicyWindow.base_ptr == data);
  int priority = 1;
  CHECK(cudaStreamGetPriority(b, &priority) == cudaSuccess && priority == 0);
  // Launches on the stream run as before.
  CHECK(cudaMemset(data, 0, n * sizeof(int)) == cudaSuccess);
  increment<<<(n + 127) / 128, 128, 0, a>>>(data, n);
  CHECK(cudaStreamSynchronize(a) == cudaSuccess);
  CHECK(cudaCtxResetPersistingL2Cache() == cudaSuccess);
  // Not a stream attribute.
  CHECK(cudaStreamSetAttribute(a, cudaLaunchAttributeCooperative, &read) ==
        cudaErrorInvalidValue);
  cudaGetLastError();

  // Attaching managed memory to a stream, then using it there.
  int *managed;
  CHECK(cudaMallocManaged(&managed, n * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    managed[i] = i;
  CHECK(cudaStreamAttachMemAsync(a, managed, 0, cudaMemAttachSingle) ==
        cudaSuccess);
  increment<<<(n + 127) / 128, 128, 0, a>>>(managed, n);
  CHECK(cudaStreamSynchronize(a) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    CHECK(managed[i] == i + 1);
  CHECK(cudaStreamAttachMemAsync(b, &managedCounter, sizeof(int),
                                 cudaMemAttachGlobal) == cudaSuccess);
  // Device memory, part of an allocation and bad flags are refused.
  CHECK(cudaStreamAttachMemAsync(a, data) == cudaErrorInvalidValue);
  CHECK(cudaStreamAttachMemAsync(a, managed + 1) == cudaErrorInvalidValue);
  CHECK(cudaStreamAttachMemAsync(a, managed, 4) == cudaErrorInvalidValue);
  CHECK(cudaStreamAttachMemAsync(a, managed, 0, 8) == cudaErrorInvalidValue);
  cudaGetLastError();

  // Peers: one device, not its own peer.
  int canAccess = -1;
  CHECK(cudaDeviceCanAccessPeer(&canAccess, 0, 0) == cudaSuccess &&
        canAccess == 0);
  CHECK(cudaDeviceCanAccessPeer(&canAccess, 0, 1) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceEnablePeerAccess(0, 0) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceEnablePeerAccess(1, 0) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceDisablePeerAccess(1) == cudaErrorInvalidDevice);
  int p2p = -1;
  CHECK(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0,
                                  0) == cudaErrorInvalidDevice);
  cudaGetLastError();
  int *copy;
  CHECK(cudaMalloc(&copy, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpyPeerAsync(copy, 0, managed, 0, n * sizeof(int), b) ==
        cudaSuccess);
  CHECK(cudaMemcpyPeerAsync(copy, 1, managed, 0, 4, b) ==
        cudaErrorInvalidDevice);
  cudaGetLastError();
  int host[4] = {0, 0, 0, 0};
  CHECK(cudaMemcpyAsync(host, copy + n - 4, sizeof(host),
                        cudaMemcpyDeviceToHost, b) == cudaSuccess);
  CHECK(cudaStreamSynchronize(b) == cudaSuccess);
  CHECK(host[0] == n - 3 && host[3] == n);

  // Bus ids round-trip.
  char bus[32];
  CHECK(cudaDeviceGetPCIBusId(bus, sizeof(bus), 0) == cudaSuccess);
  int byBus = -1;
  CHECK(cudaDeviceGetByPCIBusId(&byBus, bus) == cudaSuccess && byBus == 0);
  CHECK(cudaDeviceGetByPCIBusId(&byBus, "0000:65:00.0") ==
        cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetPCIBusId(bus, 4, 0) == cudaErrorInvalidValue);
  cudaGetLastError();

  CHECK(cudaInitDevice(0, 0, 0) == cudaSuccess);
  CHECK(cudaInitDevice(3, 0, 0) == cudaErrorInvalidDevice);
  int valid[] = {0};
  CHECK(cudaSetValidDevices(valid, 1) == cudaSuccess);
  int invalid[] = {0, 2};
  CHECK(cudaSetValidDevices(invalid, 2) == cudaErrorInvalidDevice);
  cudaGetLastError();

  const char *name = nullptr;
  CHECK(cudaFuncGetName(&name, (const void *)increment) == cudaSuccess);
  CHECK(name && strcmp(name, "_Z9incrementPii") == 0);

  CHECK(cudaStreamDestroy(a) == cudaSuccess);
  CHECK(cudaStreamDestroy(b) == cudaSuccess);
  printf("PASSED\n");
  return 0;
}
