// Texture handles a kernel receives but does not sample may be anything
// (respec's code asks the runtime for a handle's header wherever it likes,
// so that it can hoist it); a kernel that samples a destroyed texture object
// stops the program with a message, as a GPU reports an unspecified launch
// failure, instead of reading freed memory. The surface case likewise.
// RUN: %respec -O2 %s -o %t
// RUN: %t unused | FileCheck %s --check-prefix=UNUSED
// RUN: not --crash %t texture > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=TEXTURE < %t.out
// RUN: not --crash %t surface > %t.surface 2>&1
// RUN: FileCheck %s --check-prefix=SURFACE < %t.surface
// UNUSED: unused handles PASSED
// TEXTURE: before the launch
// TEXTURE: respec: a kernel used texture object 0x{{[0-9a-f]+}}, which is not a live object of that kind: unspecified launch failure
// TEXTURE-NOT: after the launch
// SURFACE: respec: a kernel used surface object 0x{{[0-9a-f]+}}, which is not a live object of that kind: unspecified launch failure

#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void maybeSample(cudaTextureObject_t t, cudaTextureObject_t u,
                            bool use, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = use ? tex2D<float>(t, i + 0.5f, 0.5f) + tex1Dfetch<float>(u, i)
                 : -1.0f;
}

__global__ void store(cudaSurfaceObject_t s) {
  surf2Dwrite(1.0f, s, threadIdx.x * 4, 0);
}

int main(int argc, char **argv) {
  const int n = 256;
  float *out;
  cudaMalloc(&out, n * sizeof(float));
  if (argc > 1 && !strcmp(argv[1], "unused")) {
    // Garbage and null handles in a kernel that does not sample them.
    maybeSample<<<2, 128>>>(0x1234567ull, 0, false, out, n);
    float host[n];
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < n; ++i)
      ok &= host[i] == -1.0f;
    printf("unused handles %s\n", ok ? "PASSED" : "FAILED");
    return 0;
  }
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &desc, n, 1, cudaArraySurfaceLoadStore);
  cudaResourceDesc resource;
  memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  printf("before the launch\n");
  fflush(stdout);
  if (!strcmp(argv[1], "surface")) {
    cudaSurfaceObject_t s;
    cudaCreateSurfaceObject(&s, &resource);
    cudaDestroySurfaceObject(s);
    store<<<1, 32>>>(s);
  } else {
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &resource, &td, nullptr);
    cudaDestroyTextureObject(t);
    maybeSample<<<2, 128>>>(t, t, true, out, n);
  }
  cudaDeviceSynchronize();
  printf("after the launch\n");
  return 0;
}
