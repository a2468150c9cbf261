//===- MemoryTest.cpp - Allocation, memcpy kinds, pitched copies ----------===//

#include "RuntimeTest.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

void testMemcpyKinds() {
  int host[64], back[64];
  for (int i = 0; i < 64; ++i)
    host[i] = i * 3;
  int *a = nullptr, *b = nullptr;
  CHECK_OK(cudaMalloc(&a, sizeof(host)));
  CHECK_OK(cudaMalloc(&b, sizeof(host)));
  CHECK_OK(cudaMemcpy(a, host, sizeof(host), cudaMemcpyHostToDevice));
  CHECK_OK(cudaMemcpy(b, a, sizeof(host), cudaMemcpyDeviceToDevice));
  CHECK_OK(cudaMemcpy(back, b, sizeof(host), cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(host, back, sizeof(host)) == 0);
  std::memset(back, 0, sizeof(back));
  CHECK_OK(cudaMemcpy(back, host, sizeof(host), cudaMemcpyHostToHost));
  CHECK_OK(cudaMemcpy(a, back, sizeof(host), cudaMemcpyDefault));
  CHECK(a[63] == 189);
  CHECK_EQ_ERR(cudaMemcpy(a, host, 4, static_cast<cudaMemcpyKind>(7)),
               cudaErrorInvalidMemcpyDirection);
  CHECK_OK(cudaMemset(a, 0xff, sizeof(host)));
  CHECK(a[10] == -1);
  CHECK_OK(cudaFree(a));
  CHECK_OK(cudaFree(b));
  CHECK_OK(cudaFree(nullptr));
  CHECK_EQ_ERR(cudaFree(host), cudaErrorInvalidValue);
  cudaGetLastError();
}

void testPitched2D() {
  const size_t width = 100, height = 7;
  char *dev = nullptr;
  size_t pitch = 0;
  CHECK_OK(
      cudaMallocPitch(reinterpret_cast<void **>(&dev), &pitch, width, height));
  CHECK(pitch % 512 == 0 && pitch >= width);
  // Rows of a power-of-two width are not put a multiple of 4 KiB apart.
  for (size_t wide : {size_t(4096), size_t(8192), size_t(4000)}) {
    char *rows = nullptr;
    size_t rowPitch = 0;
    CHECK_OK(cudaMallocPitch(reinterpret_cast<void **>(&rows), &rowPitch,
                             wide, 3));
    CHECK(rowPitch % 512 == 0 && rowPitch >= wide && rowPitch % 4096 != 0);
    rows[2 * rowPitch + wide - 1] = 1;
    CHECK_OK(cudaFree(rows));
  }
  cudaPitchedPtr volume;
  CHECK_OK(cudaMalloc3D(&volume, make_cudaExtent(2048, 2, 2)));
  CHECK(volume.pitch >= 2048 && volume.pitch % 4096 != 0);
  CHECK_OK(cudaFree(volume.ptr));
  std::vector<char> src(width * height), dst(width * height, 0);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = char(i * 7);
  CHECK_OK(cudaMemset2D(dev, pitch, 0x11, pitch, height));
  CHECK_OK(cudaMemcpy2D(dev, pitch, src.data(), width, width, height,
                        cudaMemcpyHostToDevice));
  CHECK(dev[pitch * 3 + 5] == src[width * 3 + 5]);
  CHECK(dev[pitch * 3 + width] == 0x11); // padding untouched
  CHECK_OK(cudaMemcpy2D(dst.data(), width, dev, pitch, width, height,
                        cudaMemcpyDeviceToHost));
  CHECK(dst == src);
  CHECK_EQ_ERR(cudaMemcpy2D(dst.data(), 10, dev, pitch, width, height,
                            cudaMemcpyDeviceToHost),
               cudaErrorInvalidPitchValue);
  CHECK_OK(cudaFree(dev));
  cudaGetLastError();
}

void testPitched3D() {
  cudaExtent extent = make_cudaExtent(10 * sizeof(int), 4, 3);
  cudaPitchedPtr dev;
  CHECK_OK(cudaMalloc3D(&dev, extent));
  CHECK(dev.pitch % 512 == 0 && dev.xsize == 40 && dev.ysize == 4);
  CHECK_OK(cudaMemset3D(dev, 0, extent));
  std::vector<int> host(10 * 4 * 3);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = int(i);
  cudaMemcpy3DParms p;
  std::memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(host.data(), 40, 10, 4);
  p.dstPtr = dev;
  p.extent = extent;
  p.kind = cudaMemcpyHostToDevice;
  CHECK_OK(cudaMemcpy3D(&p));
  const char *base = static_cast<const char *>(dev.ptr);
  const int *row =
      reinterpret_cast<const int *>(base + (2 * 4 + 3) * dev.pitch);
  CHECK(row[9] == 2 * 40 + 3 * 10 + 9);
  // Copy back one 2x2x2 sub-box starting at (x=1 element, y=1, z=1).
  std::vector<int> box(8, -1);
  std::memset(&p, 0, sizeof(p));
  p.srcPtr = dev;
  p.srcPos = make_cudaPos(sizeof(int), 1, 1);
  p.dstPtr = make_cudaPitchedPtr(box.data(), 2 * sizeof(int), 2, 2);
  p.extent = make_cudaExtent(2 * sizeof(int), 2, 2);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_OK(cudaMemcpy3D(&p));
  CHECK(box[0] == 40 + 10 + 1 && box[7] == 2 * 40 + 2 * 10 + 2);
  // A handle that is not a CUDA array.
  p.srcArray = reinterpret_cast<cudaArray_t>(0x10);
  CHECK_EQ_ERR(cudaMemcpy3D(&p), cudaErrorInvalidResourceHandle);
  CHECK_OK(cudaFree(dev.ptr));
  cudaGetLastError();
}

void testHostAndManagedMemory() {
  float *pinned = nullptr, *managed = nullptr, *device = nullptr;
  CHECK_OK(cudaMallocHost(&pinned, 256));
  CHECK_OK(cudaMallocManaged(&managed, 256));
  CHECK_OK(cudaMalloc(&device, 256));
  cudaPointerAttributes attr;
  CHECK_OK(cudaPointerGetAttributes(&attr, pinned + 3));
  CHECK(attr.type == cudaMemoryTypeHost);
  CHECK_OK(cudaPointerGetAttributes(&attr, managed));
  CHECK(attr.type == cudaMemoryTypeManaged && attr.hostPointer == managed);
  CHECK_OK(cudaPointerGetAttributes(&attr, device));
  CHECK(attr.type == cudaMemoryTypeDevice && attr.devicePointer == device);
  int local = 0;
  CHECK_OK(cudaPointerGetAttributes(&attr, &local));
  CHECK(attr.type == cudaMemoryTypeUnregistered);
  void *mapped = nullptr;
  CHECK_OK(cudaHostGetDevicePointer(&mapped, pinned, 0));
  CHECK(mapped == pinned);
  CHECK_EQ_ERR(cudaFreeHost(device), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaFree(pinned), cudaErrorInvalidValue);
  std::vector<char> buffer(4096);
  CHECK_OK(cudaHostRegister(buffer.data(), buffer.size(), 0));
  CHECK_EQ_ERR(cudaHostRegister(buffer.data(), 16, 0),
               cudaErrorHostMemoryAlreadyRegistered);
  CHECK_OK(cudaHostUnregister(buffer.data()));
  CHECK_EQ_ERR(cudaHostUnregister(buffer.data()),
               cudaErrorHostMemoryNotRegistered);
  cudaMemLocation location = {cudaMemLocationTypeDevice, 0};
  CHECK_OK(cudaMemPrefetchAsync(managed, 256, location, 0, nullptr));
  CHECK_OK(cudaMemAdvise(managed, 256, cudaMemAdviseSetReadMostly, location));
  size_t freeBytes = 0, totalBytes = 0;
  CHECK_OK(cudaMemGetInfo(&freeBytes, &totalBytes));
  CHECK(totalBytes > 0 && freeBytes <= totalBytes);
  CHECK_OK(cudaFreeHost(pinned));
  CHECK_OK(cudaFree(managed));
  CHECK_OK(cudaFree(device));
  cudaGetLastError();
}

} // namespace

/// A copy that runs past the end of a cudaMalloc allocation fails with
/// cudaErrorInvalidValue and copies nothing, as a GPU's driver refuses it
/// (before, it read or wrote past the allocation).
void testCopyPastAllocation() {
  char *dev = nullptr;
  CHECK_OK(cudaMalloc(&dev, 4096));
  std::vector<char> host(1 << 20, 7);
  CHECK_EQ_ERR(
      cudaMemcpy(host.data(), dev, host.size(), cudaMemcpyDeviceToHost),
      cudaErrorInvalidValue);
  CHECK(host[0] == 7);
  CHECK_EQ_ERR(cudaMemcpy(dev + 4000, host.data(), 200, cudaMemcpyHostToDevice),
               cudaErrorInvalidValue);
  CHECK_EQ_ERR(
      cudaMemcpy(dev, dev, size_t(1) << 40, cudaMemcpyDeviceToDevice),
      cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK_OK(cudaMemcpyAsync(dev + 96, host.data(), 4000, cudaMemcpyHostToDevice,
                           0));
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(dev[96] == 7 && dev[4095] == 7);
  CHECK_OK(cudaFree(dev));
}

/// Large allocations start at different offsets within a 4 KiB page (x86
/// mistakes loads and stores 4 KiB apart for dependent ones), still
/// 256-byte aligned, usable to their last byte, known to the pointer
/// queries and freed by cudaFree; small ones are not padded.
void testStaggeredLargeAllocations() {
  const size_t bytes = (size_t(1) << 20) + 100;
  std::vector<char *> arrays(4);
  for (char *&array : arrays) {
    CHECK_OK(cudaMalloc(&array, bytes));
    CHECK(reinterpret_cast<uintptr_t>(array) % 256 == 0);
    std::memset(array, 0x5a, bytes);
    cudaPointerAttributes attr;
    CHECK_OK(cudaPointerGetAttributes(&attr, array + bytes - 1));
    CHECK(attr.type == cudaMemoryTypeDevice &&
          attr.devicePointer == array + bytes - 1);
  }
  for (size_t i = 0; i < arrays.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      CHECK(reinterpret_cast<uintptr_t>(arrays[i]) % 4096 !=
            reinterpret_cast<uintptr_t>(arrays[j]) % 4096);
  char *copy = nullptr;
  CHECK_OK(cudaMallocManaged(&copy, bytes));
  CHECK_OK(cudaMemcpy(copy, arrays[3], bytes, cudaMemcpyDeviceToDevice));
  CHECK(copy[0] == 0x5a && copy[bytes - 1] == 0x5a);
  CHECK_OK(cudaFree(copy));
  for (char *array : arrays)
    CHECK_OK(cudaFree(array));
  CHECK_EQ_ERR(cudaFree(arrays[0]), cudaErrorInvalidValue);
  cudaGetLastError();
}

// What the shared-memory forwarding tests at launch: pointers into
// different allocations, or into one and outside it, cannot meet; two into
// one allocation, or both into the program's own memory (registered or
// not), may.
void testDistinctAllocations() {
  int *a = nullptr, *b = nullptr, *m = nullptr;
  CHECK_OK(cudaMalloc(&a, 4096));
  CHECK_OK(cudaMalloc(&b, 256));
  CHECK_OK(cudaMallocManaged(&m, 1 << 20));
  static int hostArray[2048];
  static int global;
  CHECK(__respec_distinct_allocations(a, b) != 0);
  CHECK(__respec_distinct_allocations(b + 10, a + 1000) != 0);
  CHECK(__respec_distinct_allocations(a, m + 5) != 0);
  CHECK(__respec_distinct_allocations(a, &global) != 0);
  CHECK(__respec_distinct_allocations(hostArray, m) != 0);
  CHECK(__respec_distinct_allocations(a, a + 512) == 0);
  CHECK(__respec_distinct_allocations(m + 7, m) == 0);
  CHECK(__respec_distinct_allocations(hostArray, &global) == 0);
  CHECK(__respec_distinct_allocations(hostArray, hostArray + 1024) == 0);
  // Two registered halves of one host array may be reached from either.
  CHECK_OK(cudaHostRegister(hostArray, 4096, cudaHostRegisterDefault));
  CHECK_OK(cudaHostRegister(hostArray + 1024, 4096, cudaHostRegisterDefault));
  CHECK(__respec_distinct_allocations(hostArray, hostArray + 1024) == 0);
  CHECK(__respec_distinct_allocations(hostArray, a) != 0);
  CHECK_OK(cudaHostUnregister(hostArray));
  CHECK_OK(cudaHostUnregister(hostArray + 1024));
  CHECK_OK(cudaFree(a));
  CHECK_OK(cudaFree(b));
  CHECK_OK(cudaFree(m));
}

int main() {
  testMemcpyKinds();
  testDistinctAllocations();
  testStaggeredLargeAllocations();
  testCopyPastAllocation();
  testPitched2D();
  testPitched3D();
  testHostAndManagedMemory();
  return finishTest("MemoryTest");
}
