// Every thread of a 3-D launch (gridDim.y and gridDim.z > 1, blockDim.z > 1,
// non-power-of-two sizes) records its threadIdx, blockIdx, blockDim and
// gridDim; the host checks each thread appeared exactly once with the
// right values.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O1 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O1 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

struct ThreadRecord {
  unsigned tx, ty, tz;
  unsigned bx, by, bz;
  unsigned dx, dy, dz;
  unsigned gx, gy, gz;
  int visits;
};

__global__ void record(ThreadRecord *rec) {
  unsigned threadsPerBlock = blockDim.x * blockDim.y * blockDim.z;
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned local = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  ThreadRecord *r = &rec[block * threadsPerBlock + local];
  r->tx = threadIdx.x;
  r->ty = threadIdx.y;
  r->tz = threadIdx.z;
  r->bx = blockIdx.x;
  r->by = blockIdx.y;
  r->bz = blockIdx.z;
  r->dx = blockDim.x;
  r->dy = blockDim.y;
  r->dz = blockDim.z;
  r->gx = gridDim.x;
  r->gy = gridDim.y;
  r->gz = gridDim.z;
  atomicAdd(&r->visits, 1);
}

static int checkLaunch(dim3 grid, dim3 block) {
  size_t total = (size_t)grid.x * grid.y * grid.z * block.x * block.y * block.z;
  ThreadRecord *d;
  CUDA_CHECK(cudaMalloc(&d, total * sizeof(ThreadRecord)));
  CUDA_CHECK(cudaMemset(d, 0, total * sizeof(ThreadRecord)));
  record<<<grid, block>>>(d);
  CUDA_CHECK(cudaGetLastError());
  ThreadRecord *h = (ThreadRecord *)malloc(total * sizeof(ThreadRecord));
  CUDA_CHECK(cudaMemcpy(h, d, total * sizeof(ThreadRecord),
                        cudaMemcpyDeviceToHost));
  size_t idx = 0;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx, ++idx) {
              const ThreadRecord &r = h[idx];
              if (r.visits != 1 || r.tx != tx || r.ty != ty || r.tz != tz ||
                  r.bx != bx || r.by != by || r.bz != bz || r.dx != block.x ||
                  r.dy != block.y || r.dz != block.z || r.gx != grid.x ||
                  r.gy != grid.y || r.gz != grid.z) {
                printf("grid (%u,%u,%u) block (%u,%u,%u): bad record for "
                       "block (%u,%u,%u) thread (%u,%u,%u): visits %d, "
                       "tid (%u,%u,%u) bid (%u,%u,%u)\n",
                       grid.x, grid.y, grid.z, block.x, block.y, block.z, bx,
                       by, bz, tx, ty, tz, r.visits, r.tx, r.ty, r.tz, r.bx,
                       r.by, r.bz);
                return 1;
              }
            }
  CUDA_CHECK(cudaFree(d));
  free(h);
  return 0;
}

int main() {
  int bad = 0;
  bad |= checkLaunch(dim3(5, 3, 2), dim3(7, 3, 5));
  bad |= checkLaunch(dim3(2, 6, 7), dim3(4, 4, 4));
  bad |= checkLaunch(dim3(1, 1, 9), dim3(3, 1, 11));
  bad |= checkLaunch(dim3(13, 1, 1), dim3(1, 33, 1));
  bad |= checkLaunch(dim3(3, 2, 2), dim3(16, 8, 8)); // 1024 threads per block
  if (bad) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
