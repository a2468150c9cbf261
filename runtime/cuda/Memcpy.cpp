//===- Memcpy.cpp - cudaMemcpy* and symbol copies on the GPU --------------===//
//
// Every device respec supports has unified addressing, so the driver infers
// where each pointer lives and every copy kind becomes one cuMemcpy* call on
// CU_MEMORYTYPE_UNIFIED pointers (CU_MEMORYTYPE_ARRAY for the CUDA array
// side of a 3-D copy); the kind is only validated. The synchronous forms
// use the driver's synchronous calls, which give cudaMemcpy's documented
// host synchronization (pageable transfers complete before returning,
// device-to-device copies may still run).
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/CudaArrays.h"
#include "../common/Diagnostics.h"
#include "../common/ModuleRegistry.h"
#include "Context.h"
#include "Modules.h"

#include <mutex>
#include <unordered_map>

using namespace respec;
using namespace respec::gpu;

namespace {

bool isValidKind(cudaMemcpyKind kind) {
  return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

cudaError_t finishCopy(CUresult result, Ordering order, const char *call) {
  if (result == CUDA_SUCCESS && !order.async && order.stream)
    result = driver().streamSynchronize(toDriverStream(order.stream));
  return checkDriver(result, call);
}

} // namespace

cudaError_t respec::copyLinear(void *dst, const void *src, size_t count,
                               cudaMemcpyKind kind, Ordering order,
                               const char *call) {
  if (!isValidKind(kind))
    return reportError(cudaErrorInvalidMemcpyDirection, call, "kind %d",
                       static_cast<int>(kind));
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess || count == 0)
    return status;
  if (!dst || !src)
    return reportError(cudaErrorInvalidValue, call, "null pointer");
  const DriverApi &api = driver();
  CUresult result = !order.async && !order.stream
                        ? api.memcpy(toDevicePtr(dst), toDevicePtr(src), count)
                        : api.memcpyAsync(toDevicePtr(dst), toDevicePtr(src),
                                          count, toDriverStream(order.stream));
  return finishCopy(result, order, call);
}

cudaError_t respec::copy2D(void *dst, size_t dpitch, const void *src,
                           size_t spitch, size_t width, size_t height,
                           cudaMemcpyKind kind, Ordering order,
                           const char *call) {
  if (!isValidKind(kind))
    return reportError(cudaErrorInvalidMemcpyDirection, call);
  if (width > dpitch || width > spitch)
    return reportError(cudaErrorInvalidPitchValue, call,
                       "width %zu exceeds a pitch", width);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess || width == 0 || height == 0)
    return status;
  if (!dst || !src)
    return reportError(cudaErrorInvalidValue, call, "null pointer");
  CUDA_MEMCPY2D copy{};
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.srcDevice = toDevicePtr(src);
  copy.srcPitch = spitch;
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstDevice = toDevicePtr(dst);
  copy.dstPitch = dpitch;
  copy.WidthInBytes = width;
  copy.Height = height;
  const DriverApi &api = driver();
  CUresult result =
      !order.async && !order.stream
          ? api.memcpy2D(&copy)
          : api.memcpy2DAsync(&copy, toDriverStream(order.stream));
  return finishCopy(result, order, call);
}

namespace {

/// One side of a 3-D copy in the driver's terms: a CUDA array (positions
/// in elements, rows and slices or layers) or unified memory (positions in
/// bytes).
struct CopySide {
  size_t xInBytes;
  size_t y;
  size_t z;
  int memoryType;
  CUdeviceptr device;
  CUarray array;
  size_t pitch;
  size_t height;
};

CopySide arraySide(cudaArray_t array, const cudaPos &pos, size_t elementBytes) {
  return CopySide{pos.x * elementBytes,
                  pos.y,
                  pos.z,
                  CU_MEMORYTYPE_ARRAY,
                  0,
                  reinterpret_cast<CUarray>(array),
                  0,
                  0};
}

/// A pitched pointer's ysize is its slice height in rows.
CopySide pointerSide(const cudaPitchedPtr &ptr, const cudaPos &pos,
                     size_t rows) {
  return CopySide{pos.x,
                  pos.y,
                  pos.z,
                  CU_MEMORYTYPE_UNIFIED,
                  toDevicePtr(ptr.ptr),
                  nullptr,
                  ptr.pitch,
                  ptr.ysize ? ptr.ysize : rows};
}

} // namespace

cudaError_t respec::copy3D(const cudaMemcpy3DParms *p, Ordering order,
                           const char *call) {
  if (!p)
    return reportError(cudaErrorInvalidValue, call);
  if (!isValidKind(p->kind))
    return reportError(cudaErrorInvalidMemcpyDirection, call);
  // With a CUDA array on either side, the extent's width and the array's x
  // position count its elements; a pointer's x position counts bytes.
  ArrayShape srcShape, dstShape;
  size_t elementBytes = 1;
  if (cudaError_t error =
          arraySidesOf(*p, &srcShape, &dstShape, &elementBytes, call))
    return error;
  const cudaExtent &e = p->extent;
  size_t widthBytes = e.width * elementBytes;
  if ((!p->srcArray && widthBytes > p->srcPtr.pitch) ||
      (!p->dstArray && widthBytes > p->dstPtr.pitch))
    return reportError(cudaErrorInvalidPitchValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess || e.width == 0 || e.height == 0 || e.depth == 0)
    return status;
  if ((!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr))
    return reportError(cudaErrorInvalidValue, call, "null pointer");
  if ((p->srcArray && !fitsArray(srcShape, p->srcPos, e, "source", call)) ||
      (p->dstArray && !fitsArray(dstShape, p->dstPos, e, "destination", call)))
    return cudaErrorInvalidValue;
  CopySide src = p->srcArray ? arraySide(p->srcArray, p->srcPos, elementBytes)
                             : pointerSide(p->srcPtr, p->srcPos, e.height);
  CopySide dst = p->dstArray ? arraySide(p->dstArray, p->dstPos, elementBytes)
                             : pointerSide(p->dstPtr, p->dstPos, e.height);
  CUDA_MEMCPY3D copy{};
  copy.srcXInBytes = src.xInBytes;
  copy.srcY = src.y;
  copy.srcZ = src.z;
  copy.srcMemoryType = src.memoryType;
  copy.srcDevice = src.device;
  copy.srcArray = src.array;
  copy.srcPitch = src.pitch;
  copy.srcHeight = src.height;
  copy.dstXInBytes = dst.xInBytes;
  copy.dstY = dst.y;
  copy.dstZ = dst.z;
  copy.dstMemoryType = dst.memoryType;
  copy.dstDevice = dst.device;
  copy.dstArray = dst.array;
  copy.dstPitch = dst.pitch;
  copy.dstHeight = dst.height;
  copy.WidthInBytes = widthBytes;
  copy.Height = e.height;
  copy.Depth = e.depth;
  const DriverApi &api = driver();
  CUresult result =
      !order.async && !order.stream
          ? api.memcpy3D(&copy)
          : api.memcpy3DAsync(&copy, toDriverStream(order.stream));
  return finishCopy(result, order, call);
}

namespace {

/// Device addresses handed out by cudaGetSymbolAddress, which CUDA also
/// accepts as the symbol of the symbol copies.
struct SymbolAddresses {
  std::mutex mutex;
  std::unordered_map<CUdeviceptr, size_t> sizes;
};

SymbolAddresses &symbolAddresses() {
  static SymbolAddresses *instance = new SymbolAddresses;
  return *instance;
}

/// The device copy of `symbol` in the current device's context.
cudaError_t resolveSymbol(const void *symbol, const char *call,
                          CUdeviceptr *address, size_t *bytes) {
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  SymbolInfo info;
  if (!lookupSymbol(symbol, &info)) {
    SymbolAddresses &known = symbolAddresses();
    std::lock_guard<std::mutex> lock(known.mutex);
    auto it = known.sizes.find(toDevicePtr(symbol));
    if (it == known.sizes.end())
      return reportError(cudaErrorInvalidSymbol, call,
                         "%p is not a registered __device__/__constant__ "
                         "variable",
                         symbol);
    *address = it->first;
    *bytes = it->second;
    return cudaSuccess;
  }
  if (!info.gpuModule)
    return reportError(cudaErrorInvalidSymbol, call,
                       "'%s' was built for the CPU; link the program with the "
                       "CPU runtime",
                       info.deviceName ? info.deviceName : "symbol");
  LoadedModule *loaded = nullptr;
  status = loadModule(info.gpuModule, call, &loaded);
  if (status != cudaSuccess)
    return status;
  status = findGlobal(loaded, info.deviceName, call, address, bytes);
  if (status != cudaSuccess)
    return status;
  SymbolAddresses &known = symbolAddresses();
  std::lock_guard<std::mutex> lock(known.mutex);
  known.sizes[*address] = *bytes;
  return cudaSuccess;
}

} // namespace

cudaError_t respec::symbolRange(const void *symbol, size_t count, size_t offset,
                                char **address, const char *call) {
  CUdeviceptr base = 0;
  size_t bytes = 0;
  cudaError_t status = resolveSymbol(symbol, call, &base, &bytes);
  if (status != cudaSuccess)
    return status;
  if (offset > bytes || count > bytes - offset)
    return reportError(cudaErrorInvalidValue, call,
                       "%zu bytes at offset %zu exceed the symbol's %zu bytes",
                       count, offset, bytes);
  *address = static_cast<char *>(fromDevicePtr(base)) + offset;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                                      int srcDevice, size_t count) {
  const char *call = "cudaMemcpyPeer";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess || count == 0)
    return status;
  if (dstDevice < 0 || dstDevice >= deviceCount() || srcDevice < 0 ||
      srcDevice >= deviceCount())
    return reportError(cudaErrorInvalidDevice, call);
  CUcontext dstContext = primaryContext(dstDevice);
  CUcontext srcContext = primaryContext(srcDevice);
  return checkDriver(driver().memcpyPeer(toDevicePtr(dst), dstContext,
                                         toDevicePtr(src), srcContext, count),
                     call);
}

extern "C" cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  if (!size)
    return reportError(cudaErrorInvalidValue, "cudaGetSymbolSize");
  CUdeviceptr address = 0;
  return resolveSymbol(symbol, "cudaGetSymbolSize", &address, size);
}

//===----------------------------------------------------------------------===//
// Per-thread default stream variants (_ptds, _ptsz).
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind) {
  return copyLinear(dst, src, count, kind, perThreadSynchronous, "cudaMemcpy");
}

extern "C" cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src,
                                            size_t count,
                                            enum cudaMemcpyKind kind,
                                            cudaStream_t stream) {
  return copyLinear(dst, src, count, kind, onPerThreadStream(stream),
                    "cudaMemcpyAsync");
}

extern "C" cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch,
                                         const void *src, size_t spitch,
                                         size_t width, size_t height,
                                         enum cudaMemcpyKind kind) {
  return copy2D(dst, dpitch, src, spitch, width, height, kind,
                perThreadSynchronous, "cudaMemcpy2D");
}

extern "C" cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch,
                                              const void *src, size_t spitch,
                                              size_t width, size_t height,
                                              enum cudaMemcpyKind kind,
                                              cudaStream_t stream) {
  return copy2D(dst, dpitch, src, spitch, width, height, kind,
                onPerThreadStream(stream), "cudaMemcpy2DAsync");
}

extern "C" cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p) {
  return copy3D(p, perThreadSynchronous, "cudaMemcpy3D");
}

extern "C" cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
                                              cudaStream_t stream) {
  return copy3D(p, onPerThreadStream(stream), "cudaMemcpy3DAsync");
}

extern "C" cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol,
                                               const void *src, size_t count,
                                               size_t offset,
                                               enum cudaMemcpyKind kind) {
  return copyToSymbol(symbol, src, count, offset, kind, perThreadSynchronous,
                      "cudaMemcpyToSymbol");
}

extern "C" cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol,
                                                    const void *src,
                                                    size_t count, size_t offset,
                                                    enum cudaMemcpyKind kind,
                                                    cudaStream_t stream) {
  return copyToSymbol(symbol, src, count, offset, kind,
                      onPerThreadStream(stream), "cudaMemcpyToSymbolAsync");
}

extern "C" cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol,
                                                 size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind) {
  return copyFromSymbol(dst, symbol, count, offset, kind, perThreadSynchronous,
                        "cudaMemcpyFromSymbol");
}

extern "C" cudaError_t
cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                               size_t offset, enum cudaMemcpyKind kind,
                               cudaStream_t stream) {
  return copyFromSymbol(dst, symbol, count, offset, kind,
                        onPerThreadStream(stream), "cudaMemcpyFromSymbolAsync");
}
