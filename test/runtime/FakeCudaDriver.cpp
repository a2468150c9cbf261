//===- FakeCudaDriver.cpp - A CUDA driver on host memory, for tests -------===//
//
// libfakecuda.so stands in for libcuda.so.1 (RESPEC_CUDA_DRIVER=<path>) so
// that the GPU runtime and programs built with --target=nvptx can be tested
// on machines without an NVIDIA GPU. It implements the driver entry points
// the runtime loads:
//
//  * memory is host memory (malloc), so tests can check copies;
//  * one device, "respec fake GPU", with sm_80-like attributes
//    (RESPEC_FAKE_CUDA_DEVICES=N: N devices; 0 simulates a driver that finds
//    no GPU);
//  * modules keep their PTX text: loading fails with a JIT log unless it has
//    an `.entry`; a cubin (ELF image) is refused as built for another GPU
//    (CUDA_ERROR_NO_BINARY_FOR_GPU, logged as `cubin refused` when logging),
//    so that the runtime's fall-back to PTX is what runs; functions and
//    `.global`/`.const` variables are found by name in the text, variables get
//    zeroed host storage of their size;
//  * streams and events run everything at once; host functions run inside
//    cuLaunchHostFunc;
//  * a capturing stream (cuStreamBeginCapture) records kernel launches (with
//    their parameters' values), cuMemcpy*Async, cuMemsetD*Async, host
//    functions and graph launches as the nodes of a chain instead of running
//    them; streams join a capture by waiting for an event recorded in it.
//    cuGraphLaunch runs an executable graph's nodes at once, in order, so a
//    replayed kernel launch is logged like a launch. Synchronizing with a
//    capturing stream, and stream-ordered allocation in one, invalidate the
//    capture (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED). cuGraphExecUpdate
//    accepts a graph with nodes of the same kinds in the same order;
//  * cuLaunchKernel cannot run PTX: it learns each parameter's size from the
//    entry's `.param` list and, when RESPEC_FAKE_CUDA_LOG names a file,
//    appends one line per launch:
//      launch NAME grid=X,Y,Z block=X,Y,Z shared=N params=P0,P1,...
//    where each Pi is the parameter's bytes in memory order (little-endian
//    values: least significant byte first), two hex digits per byte;
//  * CUDA arrays are row-major host memory (cuMemcpy2D/3D copy to and from
//    them); texture and surface objects are numbers that keep their
//    descriptors. When logging, cuArray3DCreate and cuTexObjectCreate /
//    cuSurfObjectCreate append what they were given (every number decimal
//    unless it starts with 0x, floats as %g), and the destroy calls say so:
//      array WxHxD format=0xF channels=C flags=0xF
//      texture ID RESOURCE address=A0,A1,A2 filter=F flags=0xF
//        maxAnisotropy=N mipmapFilter=F mipmapBias=B mipmapClamp=MIN,MAX
//        border=R,G,B,A
//      surface ID RESOURCE
//      destroy texture ID / destroy surface ID
//    where RESOURCE is `array WxHxD format=0xF channels=C`,
//    `linear format=0xF channels=C bytes=N` or
//    `pitch2D format=0xF channels=C size=WxH pitch=P`.
//
//===----------------------------------------------------------------------===//

#include "../../runtime/cuda/DriverApi.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

using namespace respec::gpu;

namespace {

enum class MemoryKind { Device, Host, Managed, Registered };

struct Allocation {
  size_t size;
  MemoryKind kind;
  unsigned flags;
};

struct FakeFunction {
  std::string name;
  std::vector<size_t> paramSizes;
  int maxDynamicShared = 0;
  int carveout = -1;
};

struct FakeModule {
  std::string ptx;
  std::map<std::string, std::unique_ptr<FakeFunction>> functions;
  std::map<std::string, std::pair<void *, size_t>> globals;
};

struct FakeStream;

/// A stream capture: the graph it records into and the streams that take
/// part (the origin and those that joined it by waiting for an event
/// recorded in it).
struct FakeCapture {
  CUgraph graph;
  FakeStream *origin;
  unsigned long long id;
  bool invalidated = false;
  bool ended = false;
  std::vector<FakeStream *> members;
};

struct FakeStream {
  unsigned flags;
  int priority;
  /// The capture the stream takes part in, if any, and the nodes the next
  /// operation captured in the stream depends on.
  std::shared_ptr<FakeCapture> capture = nullptr;
  std::vector<CUgraphNode> dependencies = {};
  std::vector<CUgraphEdgeData> edgeData = {};
};

struct FakeEvent {
  unsigned flags;
  bool recorded = false;
  double timeMs = 0;
  /// The capture the event was last recorded in, and the nodes it stands
  /// for there.
  std::shared_ptr<FakeCapture> capture = nullptr;
  std::vector<CUgraphNode> dependencies = {};
};

struct FakeContext {
  int device;
};

struct FakeArray {
  CUDA_ARRAY3D_DESCRIPTOR desc;
  size_t elementBytes;
  std::vector<char> data;

  size_t rowBytes() const { return desc.Width * elementBytes; }
  size_t rows() const { return desc.Height ? desc.Height : 1; }
  size_t slices() const { return desc.Depth ? desc.Depth : 1; }
};

struct FakeTexture {
  CUDA_RESOURCE_DESC resource;
  CUDA_TEXTURE_DESC sampler;
};

struct State {
  std::mutex mutex;
  bool initialized = false;
  int devices = 1;
  std::map<char *, Allocation> allocations; // by base address
  std::vector<std::unique_ptr<FakeContext>> contexts;
  size_t limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 32, 0};
  int cacheConfig = 0;
  std::map<CUarray, std::unique_ptr<FakeArray>> arrays;
  std::map<CUtexObject, FakeTexture> textures;
  std::map<CUsurfObject, CUDA_RESOURCE_DESC> surfaces;
  unsigned long long nextObject = 0x1000;
  std::set<CUgraph> graphs;
  std::set<CUgraphExec> execs;
  unsigned long long nextCaptureId = 1;
};

State &state() {
  static State *instance = new State;
  return *instance;
}

thread_local CUcontext currentContext = nullptr;

/// The fake's streams: null and CU_STREAM_LEGACY (1) are the legacy default
/// stream, CU_STREAM_PER_THREAD (2) the calling thread's own, others ones it
/// created.
FakeStream *fakeStream(CUstream stream) {
  static FakeStream legacyStream{0, 0};
  thread_local FakeStream perThreadStream{0, 0};
  auto value = reinterpret_cast<uintptr_t>(stream);
  if (value == 2)
    return &perThreadStream;
  return value < 2 ? &legacyStream : reinterpret_cast<FakeStream *>(stream);
}

bool isLegacyStream(CUstream stream) {
  return reinterpret_cast<uintptr_t>(stream) < 2;
}

/// The allocation that contains `ptr`, if any.
const Allocation *findAllocation(State &s, const void *ptr,
                                 char **base = nullptr) {
  auto *address = static_cast<char *>(const_cast<void *>(ptr));
  auto it = s.allocations.upper_bound(address);
  if (it == s.allocations.begin())
    return nullptr;
  --it;
  if (address >= it->first + std::max<size_t>(it->second.size, 1))
    return nullptr;
  if (base)
    *base = it->first;
  return &it->second;
}

CUresult allocate(void **ptr, size_t bytes, MemoryKind kind, unsigned flags) {
  if (!ptr || bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  // 256-byte alignment, as cuMemAlloc guarantees.
  void *memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(memory, 0, bytes);
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.allocations[static_cast<char *>(memory)] = {bytes, kind, flags};
  *ptr = memory;
  return CUDA_SUCCESS;
}

CUresult release(void *ptr, MemoryKind kind) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.allocations.find(static_cast<char *>(ptr));
  if (it == s.allocations.end() || it->second.kind != kind)
    return CUDA_ERROR_INVALID_VALUE;
  s.allocations.erase(it);
  std::free(ptr);
  return CUDA_SUCCESS;
}

/// Bytes of a PTX scalar type such as `.u64`, `.f32`, `.b8`; 0 if `token`
/// is not one.
size_t ptxTypeBytes(const std::string &token) {
  if (token.size() < 3 || token[0] != '.' ||
      std::string("usbf").find(token[1]) == std::string::npos)
    return 0;
  int bits = std::atoi(token.c_str() + 2);
  if (token == ".pred")
    return 4;
  return bits >= 8 && bits % 8 == 0 ? size_t(bits / 8) : 0;
}

std::vector<std::string> tokens(const std::string &text) {
  std::vector<std::string> result;
  std::string current;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!current.empty())
        result.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty())
    result.push_back(current);
  return result;
}

/// Size of a declaration `... .type name[N]...` given its tokens: the last
/// scalar type's size times the array length.
size_t declarationBytes(const std::vector<std::string> &words,
                        size_t nameIndex) {
  size_t element = 0;
  for (size_t i = 0; i < nameIndex; ++i)
    if (size_t bytes = ptxTypeBytes(words[i]))
      element = bytes;
  const std::string &name = words[nameIndex];
  size_t open = name.find('[');
  size_t count = 1;
  if (open != std::string::npos)
    count = std::strtoull(name.c_str() + open + 1, nullptr, 10);
  return element * count;
}

/// The bare name of a declared identifier token (`x[20];` -> `x`).
std::string identifierOf(const std::string &token) {
  size_t end = token.find_first_of("[;=,)");
  return token.substr(0, end);
}

/// Finds `.entry NAME(` in `ptx` and returns the position after the `(`.
size_t findEntry(const std::string &ptx, const char *name) {
  std::string key = std::string(".entry ") + name;
  for (size_t at = ptx.find(key); at != std::string::npos;
       at = ptx.find(key, at + 1)) {
    size_t next = at + key.size();
    while (next < ptx.size() && (ptx[next] == ' ' || ptx[next] == '\t' ||
                                 ptx[next] == '\n' || ptx[next] == '\r'))
      ++next;
    if (next < ptx.size() && ptx[next] == '(')
      return next + 1;
  }
  return std::string::npos;
}

/// The sizes of the parameters in an entry's `.param` list.
std::vector<size_t> parseParams(const std::string &ptx, size_t start) {
  std::vector<size_t> sizes;
  size_t end = ptx.find(')', start);
  std::string list = ptx.substr(start, end - start);
  size_t from = 0;
  while (from < list.size()) {
    size_t comma = list.find(',', from);
    if (comma == std::string::npos)
      comma = list.size();
    std::vector<std::string> words = tokens(list.substr(from, comma - from));
    if (!words.empty() && words[0] == ".param")
      sizes.push_back(declarationBytes(words, words.size() - 1));
    from = comma + 1;
  }
  return sizes;
}

/// Finds a `.global` or `.const` declaration of `name`; its size or 0.
size_t findGlobalDeclaration(const std::string &ptx, const char *name) {
  size_t lineStart = 0;
  while (lineStart < ptx.size()) {
    size_t lineEnd = ptx.find('\n', lineStart);
    if (lineEnd == std::string::npos)
      lineEnd = ptx.size();
    std::vector<std::string> words =
        tokens(ptx.substr(lineStart, lineEnd - lineStart));
    bool isVariable = false;
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i] == ".global" || words[i] == ".const")
        isVariable = true;
      else if (isVariable && identifierOf(words[i]) == name &&
               words[i][0] != '.')
        return declarationBytes(words, i);
    }
    lineStart = lineEnd + 1;
  }
  return 0;
}

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

/// Appends `line` to the RESPEC_FAKE_CUDA_LOG file, if there is one.
void appendLogLine(const std::string &line) {
  const char *path = std::getenv("RESPEC_FAKE_CUDA_LOG");
  if (!path || !path[0])
    return;
  static std::mutex logMutex;
  std::lock_guard<std::mutex> lock(logMutex);
  if (FILE *log = std::fopen(path, "a")) {
    std::fputs(line.c_str(), log);
    std::fclose(log);
  }
}

void appendLaunchLog(const char *kind, const FakeFunction &f,
                     const unsigned grid[3], const unsigned block[3],
                     unsigned shared, void **params) {
  const char *path = std::getenv("RESPEC_FAKE_CUDA_LOG");
  if (!path || !path[0])
    return;
  std::string line = std::string(kind) + " " + f.name;
  char buffer[128];
  std::snprintf(buffer, sizeof(buffer),
                " grid=%u,%u,%u block=%u,%u,%u shared=%u params=", grid[0],
                grid[1], grid[2], block[0], block[1], block[2], shared);
  line += buffer;
  for (size_t i = 0; i < f.paramSizes.size(); ++i) {
    if (i)
      line += ',';
    const auto *bytes = static_cast<const unsigned char *>(params[i]);
    for (size_t b = 0; b < f.paramSizes[i]; ++b) {
      std::snprintf(buffer, sizeof(buffer), "%02x", bytes[b]);
      line += buffer;
    }
  }
  line += '\n';
  appendLogLine(line);
}

/// One plane of a 2D/3D copy's source or destination.
char *copyBase(int memoryType, const void *host, CUdeviceptr device) {
  return memoryType == CU_MEMORYTYPE_HOST
             ? static_cast<char *>(const_cast<void *>(host))
             : reinterpret_cast<char *>(device);
}

/// The live array `array` (the caller holds the state's mutex), or null.
FakeArray *findArray(State &s, CUarray array) {
  auto it = s.arrays.find(array);
  return it == s.arrays.end() ? nullptr : it->second.get();
}

/// Bytes per element of `format` with `channels` channels; 0 if the fake
/// does not know the format or the channel count does not fit it.
size_t elementBytesOf(int format, unsigned channels) {
  if (channels != 1 && channels != 2 && channels != 4)
    return 0;
  switch (format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
  case CU_AD_FORMAT_SIGNED_INT8:
    return channels;
  case CU_AD_FORMAT_UNSIGNED_INT16:
  case CU_AD_FORMAT_SIGNED_INT16:
  case CU_AD_FORMAT_HALF:
    return 2 * channels;
  case CU_AD_FORMAT_UNSIGNED_INT32:
  case CU_AD_FORMAT_SIGNED_INT32:
  case CU_AD_FORMAT_FLOAT:
    return 4 * channels;
  case CU_AD_FORMAT_UNORM_INT8X1:
  case CU_AD_FORMAT_SNORM_INT8X1:
    return channels == 1 ? 1 : 0;
  case CU_AD_FORMAT_UNORM_INT8X2:
  case CU_AD_FORMAT_SNORM_INT8X2:
    return channels == 2 ? 2 : 0;
  case CU_AD_FORMAT_UNORM_INT8X4:
  case CU_AD_FORMAT_SNORM_INT8X4:
    return channels == 4 ? 4 : 0;
  case CU_AD_FORMAT_UNORM_INT16X1:
  case CU_AD_FORMAT_SNORM_INT16X1:
    return channels == 1 ? 2 : 0;
  case CU_AD_FORMAT_UNORM_INT16X2:
  case CU_AD_FORMAT_SNORM_INT16X2:
    return channels == 2 ? 4 : 0;
  case CU_AD_FORMAT_UNORM_INT16X4:
  case CU_AD_FORMAT_SNORM_INT16X4:
    return channels == 4 ? 8 : 0;
  default:
    return 0;
  }
}

/// A copy side in host terms: its first byte, pitch and slice height, after
/// checking an array side's region (x in bytes, then rows and slices).
CUresult resolveCopySide(State &s, int memoryType, const void *host,
                         CUdeviceptr device, CUarray array, size_t pitch,
                         size_t height, size_t x, size_t y, size_t z,
                         const CUDA_MEMCPY3D &p, char **base,
                         size_t *resolvedPitch, size_t *resolvedHeight) {
  if (memoryType != CU_MEMORYTYPE_ARRAY) {
    if (p.WidthInBytes > pitch)
      return CUDA_ERROR_INVALID_VALUE;
    *base = copyBase(memoryType, host, device);
    *resolvedPitch = pitch;
    *resolvedHeight = height;
    return CUDA_SUCCESS;
  }
  FakeArray *a = findArray(s, array);
  if (!a)
    return CUDA_ERROR_INVALID_HANDLE;
  if (x % a->elementBytes || p.WidthInBytes % a->elementBytes ||
      x + p.WidthInBytes > a->rowBytes() || y + p.Height > a->rows() ||
      z + p.Depth > a->slices())
    return CUDA_ERROR_INVALID_VALUE;
  *base = a->data.data();
  *resolvedPitch = a->rowBytes();
  *resolvedHeight = a->rows();
  return CUDA_SUCCESS;
}

/// The log's words for a resource.
std::string describeResource(State &s, const CUDA_RESOURCE_DESC &r) {
  char buffer[256];
  switch (r.resType) {
  case CU_RESOURCE_TYPE_ARRAY: {
    const FakeArray *a = findArray(s, r.res.array.hArray);
    std::snprintf(buffer, sizeof(buffer),
                  "array %zux%zux%zu format=0x%x channels=%u", a->desc.Width,
                  a->desc.Height, a->desc.Depth, a->desc.Format,
                  a->desc.NumChannels);
    break;
  }
  case CU_RESOURCE_TYPE_LINEAR:
    std::snprintf(buffer, sizeof(buffer),
                  "linear format=0x%x channels=%u bytes=%zu",
                  r.res.linear.format, r.res.linear.numChannels,
                  r.res.linear.sizeInBytes);
    break;
  default:
    std::snprintf(buffer, sizeof(buffer),
                  "pitch2D format=0x%x channels=%u size=%zux%zu pitch=%zu",
                  r.res.pitch2D.format, r.res.pitch2D.numChannels,
                  r.res.pitch2D.width, r.res.pitch2D.height,
                  r.res.pitch2D.pitchInBytes);
    break;
  }
  return buffer;
}

/// Checks a resource the way the driver documents it: an array that is
/// live, or linear memory with a known format.
CUresult checkResource(State &s, const CUDA_RESOURCE_DESC *r) {
  if (!r || r->flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  switch (r->resType) {
  case CU_RESOURCE_TYPE_ARRAY:
    return findArray(s, r->res.array.hArray) ? CUDA_SUCCESS
                                             : CUDA_ERROR_INVALID_HANDLE;
  case CU_RESOURCE_TYPE_LINEAR:
    return r->res.linear.devPtr && elementBytesOf(r->res.linear.format,
                                                  r->res.linear.numChannels)
               ? CUDA_SUCCESS
               : CUDA_ERROR_INVALID_VALUE;
  case CU_RESOURCE_TYPE_PITCH2D:
    return r->res.pitch2D.devPtr && elementBytesOf(r->res.pitch2D.format,
                                                   r->res.pitch2D.numChannels)
               ? CUDA_SUCCESS
               : CUDA_ERROR_INVALID_VALUE;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

bool isValidContext() { return currentContext != nullptr; }

} // namespace

// Graphs: a node is the operation a stream would have run, with its
// arguments copied; an executable graph holds copies of its graph's nodes,
// and a launch runs them in the order they were captured.

struct respec::gpu::CUgraphNode_st {
  enum Kind { Kernel, Memcpy, Memset, Host, ChildGraph };
  Kind kind;
  std::function<CUresult()> run;
};

struct respec::gpu::CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
  /// Whether a capture records into the graph: until it ends, the graph can
  /// be neither destroyed nor instantiated.
  bool capturing = false;
};

struct respec::gpu::CUgraphExec_st {
  std::vector<CUgraphNode_st> nodes;
};

namespace {

/// Makes `nodes` what the next operation captured in `stream` depends on.
void setDependencies(FakeStream &stream, std::vector<CUgraphNode> nodes) {
  stream.dependencies = std::move(nodes);
  stream.edgeData.assign(stream.dependencies.size(), CUgraphEdgeData{});
}

/// Leaves `stream`'s capture, if it takes part in one.
void leaveCapture(FakeStream &stream) {
  if (FakeCapture *capture = stream.capture.get())
    capture->members.erase(
        std::remove(capture->members.begin(), capture->members.end(), &stream),
        capture->members.end());
  stream.capture.reset();
  setDependencies(stream, {});
}

/// Runs `operation` now, as the fake runs all stream work, or, when `stream`
/// is capturing, records it as a node of kind `kind` instead.
CUresult submit(CUstream stream, CUgraphNode_st::Kind kind,
                std::function<CUresult()> operation) {
  {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    FakeStream *fs = fakeStream(stream);
    if (FakeCapture *capture = fs->capture.get()) {
      if (capture->invalidated)
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
      auto node = std::make_unique<CUgraphNode_st>(
          CUgraphNode_st{kind, std::move(operation)});
      setDependencies(*fs, {node.get()});
      capture->graph->nodes.push_back(std::move(node));
      return CUDA_SUCCESS;
    }
  }
  return operation();
}

/// For work the fake cannot capture (stream-ordered allocation) and for
/// synchronization with a capturing stream, which the driver refuses:
/// invalidates `stream`'s capture and returns the error, or CUDA_SUCCESS
/// when `stream` is not capturing.
CUresult refuseWhileCapturing(CUstream stream) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  FakeCapture *capture = fakeStream(stream)->capture.get();
  if (!capture)
    return CUDA_SUCCESS;
  capture->invalidated = true;
  return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

thread_local int threadCaptureMode = CU_STREAM_CAPTURE_MODE_GLOBAL;

} // namespace

extern "C" {

CUresult cuInit(unsigned flags) {
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const char *devices = std::getenv("RESPEC_FAKE_CUDA_DEVICES");
  s.devices = devices && devices[0] ? std::atoi(devices) : 1;
  if (s.devices <= 0)
    return CUDA_ERROR_NO_DEVICE;
  for (int i = 0; i < s.devices; ++i)
    s.contexts.push_back(std::make_unique<FakeContext>(FakeContext{i}));
  s.initialized = true;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version) {
  if (!version)
    return CUDA_ERROR_INVALID_VALUE;
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case CUDA_SUCCESS:
    *name = "CUDA_SUCCESS";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    *name = "CUDA_ERROR_INVALID_VALUE";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case CUDA_ERROR_NO_DEVICE:
    *name = "CUDA_ERROR_NO_DEVICE";
    break;
  case CUDA_ERROR_INVALID_PTX:
    *name = "CUDA_ERROR_INVALID_PTX";
    break;
  case CUDA_ERROR_INVALID_HANDLE:
    *name = "CUDA_ERROR_INVALID_HANDLE";
    break;
  case CUDA_ERROR_NOT_FOUND:
    *name = "CUDA_ERROR_NOT_FOUND";
    break;
  default:
    *name = "CUDA_ERROR_UNKNOWN";
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == CUDA_SUCCESS ? "no error" : "fake driver error";
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  if (!state().initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = state().devices;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal < 0 || ordinal >= state().devices)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  if (device < 0 || device >= state().devices)
    return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(name, length, "respec fake GPU");
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice device) {
  if (device < 0 || device >= state().devices)
    return CUDA_ERROR_INVALID_DEVICE;
  *bytes = size_t(16) << 30;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  if (device < 0 || device >= state().devices)
    return CUDA_ERROR_INVALID_DEVICE;
  // An sm_80 part with 108 multiprocessors.
  switch (attribute) {
  case 1:
    *value = 1024;
    break; // max threads per block
  case 2:
  case 3:
    *value = 1024;
    break; // max block dim x, y
  case 4:
    *value = 64;
    break; // max block dim z
  case 5:
    *value = 2147483647;
    break; // max grid dim x
  case 6:
  case 7:
    *value = 65535;
    break; // max grid dim y, z
  case 8:
    *value = 49152;
    break; // shared memory per block
  case 9:
    *value = 65536;
    break; // constant memory
  case 10:
    *value = 32;
    break; // warp size
  case 11:
    *value = 2147483647;
    break; // max pitch
  case 12:
    *value = 65536;
    break; // registers per block
  case 13:
    *value = 1410000;
    break; // clock rate (kHz)
  case 14:
    *value = 512;
    break; // texture alignment
  case 16:
    *value = 108;
    break; // multiprocessors
  case 19:
    *value = 1;
    break; // can map host memory
  case 31:
    *value = 1;
    break; // concurrent kernels
  case 36:
    *value = 1215000;
    break; // memory clock rate (kHz)
  case 37:
    *value = 5120;
    break; // memory bus width
  case 38:
    *value = 40 << 20;
    break; // L2 cache
  case 39:
    *value = 2048;
    break; // threads per multiprocessor
  case 40:
    *value = 2;
    break; // async engines
  case 41:
    *value = 1;
    break; // unified addressing
  case 75:
    *value = 8;
    break; // compute capability major
  case 76:
    *value = 0;
    break; // compute capability minor
  case 81:
    *value = 167936;
    break; // shared memory per SM
  case 82:
    *value = 65536;
    break; // registers per SM
  case 83:
    *value = 1;
    break; // managed memory
  case 97:
    *value = 101376;
    break; // shared memory opt-in
  case 106:
    *value = 32;
    break; // blocks per SM
  case 111:
    *value = 1024;
    break; // reserved shared memory
  default:
    *value = 0;
    break;
  }
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  State &s = state();
  if (device < 0 || device >= s.devices)
    return CUDA_ERROR_INVALID_DEVICE;
  *context = reinterpret_cast<CUcontext>(s.contexts[device].get());
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxReset_v2(CUdevice) { return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice, unsigned flags) {
  return flags & ~0x1fu ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  currentContext = context;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() {
  return isValidContext() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuCtxGetLimit(size_t *value, int limit) {
  if (limit < 0 || limit > 6)
    return CUDA_ERROR_INVALID_VALUE;
  *value = state().limits[limit];
  return CUDA_SUCCESS;
}

CUresult cuCtxSetLimit(int limit, size_t value) {
  if (limit < 0 || limit > 6)
    return CUDA_ERROR_INVALID_VALUE;
  state().limits[limit] = value;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCacheConfig(int *config) {
  *config = state().cacheConfig;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCacheConfig(int config) {
  state().cacheConfig = config;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest) {
  if (least)
    *least = 0;
  if (greatest)
    *greatest = -5;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned numOptions, int *options, void **values) {
  if (!isValidContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (std::memcmp(image, "\x7f" "ELF", 4) == 0) {
    appendLogLine("cubin refused\n");
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  std::string ptx(static_cast<const char *>(image));
  if (ptx.find(".entry") == std::string::npos) {
    char *log = nullptr;
    size_t logBytes = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        log = static_cast<char *>(values[i]);
      else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        logBytes = reinterpret_cast<uintptr_t>(values[i]);
    }
    if (log && logBytes)
      std::snprintf(log, logBytes,
                    "ptxas fatal   : fake driver: the PTX has no .entry");
    return CUDA_ERROR_INVALID_PTX;
  }
  auto *loaded = new FakeModule;
  loaded->ptx = std::move(ptx);
  *module = reinterpret_cast<CUmodule>(loaded);
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
  delete reinterpret_cast<FakeModule *>(module);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  auto *m = reinterpret_cast<FakeModule *>(module);
  if (!m || !name)
    return CUDA_ERROR_INVALID_VALUE;
  std::unique_ptr<FakeFunction> &slot = m->functions[name];
  if (!slot) {
    size_t params = findEntry(m->ptx, name);
    if (params == std::string::npos) {
      m->functions.erase(name);
      return CUDA_ERROR_NOT_FOUND;
    }
    slot = std::make_unique<FakeFunction>();
    slot->name = name;
    slot->paramSizes = parseParams(m->ptx, params);
  }
  *function = reinterpret_cast<CUfunction>(slot.get());
  return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *address, size_t *bytes,
                              CUmodule module, const char *name) {
  auto *m = reinterpret_cast<FakeModule *>(module);
  if (!m || !name)
    return CUDA_ERROR_INVALID_VALUE;
  auto it = m->globals.find(name);
  if (it == m->globals.end()) {
    size_t size = findGlobalDeclaration(m->ptx, name);
    if (!size)
      return CUDA_ERROR_NOT_FOUND;
    void *storage = nullptr;
    CUresult result = allocate(&storage, size, MemoryKind::Device, 0);
    if (result != CUDA_SUCCESS)
      return result;
    it = m->globals.emplace(name, std::make_pair(storage, size)).first;
  }
  if (address)
    *address = reinterpret_cast<CUdeviceptr>(it->second.first);
  if (bytes)
    *bytes = it->second.second;
  return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *value, int attribute, CUfunction function) {
  auto *f = reinterpret_cast<FakeFunction *>(function);
  if (!f)
    return CUDA_ERROR_INVALID_HANDLE;
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = 1024;
    break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *value = 32;
    break;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    *value = 80;
    break;
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
    *value = 80;
    break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = f->maxDynamicShared;
    break;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    *value = f->carveout;
    break;
  default:
    *value = 0;
    break;
  }
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction function, int attribute, int value) {
  auto *f = reinterpret_cast<FakeFunction *>(function);
  if (!f)
    return CUDA_ERROR_INVALID_HANDLE;
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (value < 0 || value > 101376)
      return CUDA_ERROR_INVALID_VALUE;
    f->maxDynamicShared = value;
  } else if (attribute == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
    f->carveout = value;
  }
  return CUDA_SUCCESS;
}

CUresult cuFuncSetCacheConfig(CUfunction function, int) {
  return function ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/// cuLaunchKernel and cuLaunchCooperativeKernel: log lines start with
/// `kind`.
CUresult launchFake(const char *kind, CUfunction function, unsigned gridX,
                    unsigned gridY, unsigned gridZ, unsigned blockX,
                    unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                    CUstream stream, void **params) {
  auto *f = reinterpret_cast<FakeFunction *>(function);
  if (!f)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!isValidContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  // The real driver refuses more than 48 KiB without the kernel's opt-in.
  if (sharedBytes > 49152 && int(sharedBytes) > f->maxDynamicShared)
    return CUDA_ERROR_INVALID_VALUE;
  if (!f->paramSizes.empty() && !params)
    return CUDA_ERROR_INVALID_VALUE;
  // The driver copies the parameters' values when the launch is submitted
  // (captured), so a replay launches with the values of that time.
  std::vector<std::vector<unsigned char>> values;
  for (size_t i = 0; i < f->paramSizes.size(); ++i) {
    const auto *bytes = static_cast<const unsigned char *>(params[i]);
    values.emplace_back(bytes, bytes + f->paramSizes[i]);
  }
  return submit(
      stream, CUgraphNode_st::Kernel,
      [kind, f, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes,
       values] {
        const unsigned grid[3] = {gridX, gridY, gridZ};
        const unsigned block[3] = {blockX, blockY, blockZ};
        std::vector<void *> pointers;
        for (const std::vector<unsigned char> &value : values)
          pointers.push_back(const_cast<unsigned char *>(value.data()));
        appendLaunchLog(kind, *f, grid, block, sharedBytes, pointers.data());
        return CUDA_SUCCESS;
      });
}

CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes, CUstream stream,
                        void **params, void **extra) {
  if (extra)
    return CUDA_ERROR_INVALID_HANDLE;
  return launchFake("launch", function, gridX, gridY, gridZ, blockX, blockY,
                    blockZ, sharedBytes, stream, params);
}

/// The fake device holds 2 blocks per multiprocessor of any kernel at once
/// for cooperative launches (108 multiprocessors, as its attributes say).
CUresult cuLaunchCooperativeKernel(CUfunction function, unsigned gridX,
                                   unsigned gridY, unsigned gridZ,
                                   unsigned blockX, unsigned blockY,
                                   unsigned blockZ, unsigned sharedBytes,
                                   CUstream stream, void **params) {
  if (uint64_t(gridX) * gridY * gridZ > 2 * 108)
    return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  return launchFake("cooperative launch", function, gridX, gridY, gridZ, blockX,
                    blockY, blockZ, sharedBytes, stream, params);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *blocks, CUfunction function, int blockSize, size_t, unsigned) {
  if (!function || blockSize <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  int warps = (blockSize + 31) / 32;
  *blocks = std::min(32, 64 / warps);
  return CUDA_SUCCESS;
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, CUfunction,
                                                 int numBlocks, int) {
  *bytes = std::min<size_t>(101376, 167936 / size_t(numBlocks));
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  if (!isValidContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  return allocate(reinterpret_cast<void **>(ptr), bytes, MemoryKind::Device, 0);
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *ptr, size_t *pitch, size_t width,
                            size_t height, unsigned elementSize) {
  if (elementSize != 4 && elementSize != 8 && elementSize != 16)
    return CUDA_ERROR_INVALID_VALUE;
  *pitch = (width + 511) / 512 * 512;
  return allocate(reinterpret_cast<void **>(ptr), *pitch * height,
                  MemoryKind::Device, 0);
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
  return release(reinterpret_cast<void *>(ptr), MemoryKind::Device);
}

CUresult cuMemAllocHost_v2(void **ptr, size_t bytes) {
  return allocate(ptr, bytes, MemoryKind::Host, 0);
}

CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned flags) {
  return allocate(ptr, bytes, MemoryKind::Host, flags);
}

CUresult cuMemFreeHost(void *ptr) { return release(ptr, MemoryKind::Host); }

CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes, unsigned flags) {
  return allocate(reinterpret_cast<void **>(ptr), bytes, MemoryKind::Managed,
                  flags);
}

CUresult cuMemHostRegister_v2(void *ptr, size_t bytes, unsigned flags) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (findAllocation(s, ptr) ||
      findAllocation(s, static_cast<char *>(ptr) + bytes - 1))
    return 712; // CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
  s.allocations[static_cast<char *>(ptr)] = {bytes, MemoryKind::Registered,
                                             flags};
  return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *ptr) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.allocations.find(static_cast<char *>(ptr));
  if (it == s.allocations.end() || it->second.kind != MemoryKind::Registered)
    return 713; // CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED
  s.allocations.erase(it);
  return CUDA_SUCCESS;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *device, void *host,
                                      unsigned) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const Allocation *found = findAllocation(s, host);
  if (!found || (found->kind != MemoryKind::Host &&
                 found->kind != MemoryKind::Registered))
    return CUDA_ERROR_INVALID_VALUE;
  *device = reinterpret_cast<CUdeviceptr>(host);
  return CUDA_SUCCESS;
}

CUresult cuMemHostGetFlags(unsigned *flags, void *host) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const Allocation *found = findAllocation(s, host);
  if (!found || found->kind != MemoryKind::Host)
    return CUDA_ERROR_INVALID_VALUE;
  *flags = found->flags;
  return CUDA_SUCCESS;
}

CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
  *total = size_t(16) << 30;
  *free = size_t(15) << 30;
  return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr ptr) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const Allocation *found = findAllocation(s, reinterpret_cast<void *>(ptr));
  if (!found)
    return CUDA_ERROR_INVALID_VALUE;
  bool isHost =
      found->kind == MemoryKind::Host || found->kind == MemoryKind::Registered;
  switch (attribute) {
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
    *static_cast<unsigned *>(data) =
        isHost ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_IS_MANAGED:
    *static_cast<unsigned *>(data) = found->kind == MemoryKind::Managed;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
    *static_cast<int *>(data) = 0;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    *static_cast<CUdeviceptr *>(data) = ptr;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    if (found->kind == MemoryKind::Device)
      return CUDA_ERROR_INVALID_VALUE;
    *static_cast<void **>(data) = reinterpret_cast<void *>(ptr);
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult cuMemPrefetchAsync(CUdeviceptr, size_t, CUdevice, CUstream) {
  return CUDA_SUCCESS;
}

CUresult cuMemAdvise(CUdeviceptr, size_t, int, CUdevice) {
  return CUDA_SUCCESS;
}

// Stream-ordered allocation: streams run everything at once, so an
// asynchronous allocation or free is the plain one. One default pool
// serves every device; pools keep the attributes they are given.
struct respec::gpu::CUmemPoolHandle_st {
  std::map<int, unsigned long long> attributes;
};

static CUmemPoolHandle_st defaultPool;
static CUmemPoolHandle_st *currentPool = &defaultPool;

// The fake cannot capture allocation nodes: allocating in a capturing
// stream invalidates the capture.
CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t bytes, CUstream stream) {
  if (CUresult result = refuseWhileCapturing(stream))
    return result;
  return cuMemAlloc_v2(ptr, bytes);
}

CUresult cuMemFreeAsync(CUdeviceptr ptr, CUstream stream) {
  if (CUresult result = refuseWhileCapturing(stream))
    return result;
  return cuMemFree_v2(ptr);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *ptr, size_t bytes,
                                 CUmemoryPool pool, CUstream stream) {
  if (!pool)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult result = refuseWhileCapturing(stream))
    return result;
  return cuMemAlloc_v2(ptr, bytes);
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice) {
  *pool = &defaultPool;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice) {
  *pool = currentPool;
  return CUDA_SUCCESS;
}

CUresult cuDeviceSetMemPool(CUdevice, CUmemoryPool pool) {
  if (!pool)
    return CUDA_ERROR_INVALID_VALUE;
  currentPool = pool;
  return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props) {
  if (!pool || !props)
    return CUDA_ERROR_INVALID_VALUE;
  *pool = new CUmemPoolHandle_st;
  return CUDA_SUCCESS;
}

CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  if (!pool || pool == &defaultPool)
    return CUDA_ERROR_INVALID_VALUE;
  if (currentPool == pool)
    currentPool = &defaultPool;
  delete pool;
  return CUDA_SUCCESS;
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t) {
  return pool ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/// The reuse policies (attributes 1-3) are ints, the others 64-bit.
static bool isIntAttribute(int attribute) { return attribute <= 3; }

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, int attribute,
                               void *value) {
  if (!pool || !value)
    return CUDA_ERROR_INVALID_VALUE;
  pool->attributes[attribute] =
      isIntAttribute(attribute) ? *static_cast<int *>(value)
                                : *static_cast<unsigned long long *>(value);
  return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, int attribute,
                               void *value) {
  if (!pool || !value)
    return CUDA_ERROR_INVALID_VALUE;
  unsigned long long stored = pool->attributes[attribute];
  if (isIntAttribute(attribute))
    *static_cast<int *>(value) = static_cast<int>(stored);
  else
    *static_cast<unsigned long long *>(value) = stored;
  return CUDA_SUCCESS;
}

CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *,
                            size_t) {
  return pool ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemPoolGetAccess(int *flags, CUmemoryPool pool, CUmemLocation *) {
  if (!pool || !flags)
    return CUDA_ERROR_INVALID_VALUE;
  *flags = 3; // CU_MEM_ACCESS_FLAGS_PROT_READWRITE
  return CUDA_SUCCESS;
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
               bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream stream) {
  return submit(stream, CUgraphNode_st::Memcpy,
                [dst, src, bytes] { return cuMemcpy(dst, src, bytes); });
}

CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext, CUdeviceptr src, CUcontext,
                      size_t bytes) {
  return cuMemcpy(dst, src, bytes);
}

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *p) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  char *src = nullptr, *dst = nullptr;
  size_t srcPitch = 0, srcHeight = 0, dstPitch = 0, dstHeight = 0;
  if (CUresult result = resolveCopySide(
          s, p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray,
          p->srcPitch, p->srcHeight, p->srcXInBytes, p->srcY, p->srcZ, *p, &src,
          &srcPitch, &srcHeight))
    return result;
  if (CUresult result = resolveCopySide(
          s, p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray,
          p->dstPitch, p->dstHeight, p->dstXInBytes, p->dstY, p->dstZ, *p, &dst,
          &dstPitch, &dstHeight))
    return result;
  size_t srcSlice = srcPitch * srcHeight;
  size_t dstSlice = dstPitch * dstHeight;
  for (size_t z = 0; z < p->Depth; ++z)
    for (size_t y = 0; y < p->Height; ++y)
      std::memmove(dst + (p->dstZ + z) * dstSlice + (p->dstY + y) * dstPitch +
                       p->dstXInBytes,
                   src + (p->srcZ + z) * srcSlice + (p->srcY + y) * srcPitch +
                       p->srcXInBytes,
                   p->WidthInBytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream stream) {
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  return submit(stream, CUgraphNode_st::Memcpy,
                [copy = *p] { return cuMemcpy3D_v2(&copy); });
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *p) {
  CUDA_MEMCPY3D copy{};
  copy.srcXInBytes = p->srcXInBytes;
  copy.srcY = p->srcY;
  copy.srcMemoryType = p->srcMemoryType;
  copy.srcHost = p->srcHost;
  copy.srcDevice = p->srcDevice;
  copy.srcArray = p->srcArray;
  copy.srcPitch = p->srcPitch;
  copy.srcHeight = p->Height;
  copy.dstXInBytes = p->dstXInBytes;
  copy.dstY = p->dstY;
  copy.dstMemoryType = p->dstMemoryType;
  copy.dstHost = p->dstHost;
  copy.dstDevice = p->dstDevice;
  copy.dstArray = p->dstArray;
  copy.dstPitch = p->dstPitch;
  copy.dstHeight = p->Height;
  copy.WidthInBytes = p->WidthInBytes;
  copy.Height = p->Height;
  copy.Depth = 1;
  return cuMemcpy3D_v2(&copy);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream stream) {
  if (!p)
    return CUDA_ERROR_INVALID_VALUE;
  return submit(stream, CUgraphNode_st::Memcpy,
                [copy = *p] { return cuMemcpy2D_v2(&copy); });
}

// CUDA arrays, texture objects and surface objects.

CUresult cuArray3DCreate_v2(CUarray *array,
                            const CUDA_ARRAY3D_DESCRIPTOR *desc) {
  if (!isValidContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!array || !desc)
    return CUDA_ERROR_INVALID_VALUE;
  size_t elementBytes = elementBytesOf(desc->Format, desc->NumChannels);
  bool layered = desc->Flags & CUDA_ARRAY3D_LAYERED;
  if (!elementBytes || desc->Width == 0 || (desc->Flags & ~0xfu) ||
      (layered ? desc->Depth == 0 : (desc->Height == 0 && desc->Depth != 0)))
    return CUDA_ERROR_INVALID_VALUE;
  auto created = std::make_unique<FakeArray>();
  created->desc = *desc;
  created->elementBytes = elementBytes;
  created->data.assign(
      created->rowBytes() * created->rows() * created->slices(), 0);
  char buffer[160];
  std::snprintf(buffer, sizeof(buffer),
                "array %zux%zux%zu format=0x%x channels=%u flags=0x%x\n",
                desc->Width, desc->Height, desc->Depth, desc->Format,
                desc->NumChannels, desc->Flags);
  appendLogLine(buffer);
  *array = reinterpret_cast<CUarray>(created.get());
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.arrays[*array] = std::move(created);
  return CUDA_SUCCESS;
}

CUresult cuArrayDestroy(CUarray array) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.arrays.erase(array) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuTexObjectCreate(CUtexObject *texture,
                           const CUDA_RESOURCE_DESC *resource,
                           const CUDA_TEXTURE_DESC *sampler,
                           const CUDA_RESOURCE_VIEW_DESC *view) {
  if (!isValidContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!texture || !sampler || view)
    return CUDA_ERROR_INVALID_VALUE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (CUresult result = checkResource(s, resource))
    return result;
  for (int mode : sampler->addressMode)
    if (mode < CU_TR_ADDRESS_MODE_WRAP || mode > CU_TR_ADDRESS_MODE_BORDER)
      return CUDA_ERROR_INVALID_VALUE;
  if (sampler->filterMode != CU_TR_FILTER_MODE_POINT &&
      sampler->filterMode != CU_TR_FILTER_MODE_LINEAR)
    return CUDA_ERROR_INVALID_VALUE;
  unsigned long long id = s.nextObject++;
  s.textures[id] = FakeTexture{*resource, *sampler};
  char buffer[512];
  std::snprintf(buffer, sizeof(buffer),
                " address=%d,%d,%d filter=%d flags=0x%x maxAnisotropy=%u "
                "mipmapFilter=%d mipmapBias=%g mipmapClamp=%g,%g "
                "border=%g,%g,%g,%g\n",
                sampler->addressMode[0], sampler->addressMode[1],
                sampler->addressMode[2], sampler->filterMode, sampler->flags,
                sampler->maxAnisotropy, sampler->mipmapFilterMode,
                sampler->mipmapLevelBias, sampler->minMipmapLevelClamp,
                sampler->maxMipmapLevelClamp, sampler->borderColor[0],
                sampler->borderColor[1], sampler->borderColor[2],
                sampler->borderColor[3]);
  appendLogLine("texture " + std::to_string(id) + " " +
                describeResource(s, *resource) + buffer);
  *texture = id;
  return CUDA_SUCCESS;
}

CUresult cuTexObjectDestroy(CUtexObject texture) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.textures.erase(texture))
    return CUDA_ERROR_INVALID_VALUE;
  appendLogLine("destroy texture " + std::to_string(texture) + "\n");
  return CUDA_SUCCESS;
}

CUresult cuSurfObjectCreate(CUsurfObject *surface,
                            const CUDA_RESOURCE_DESC *resource) {
  if (!isValidContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!surface || !resource || resource->resType != CU_RESOURCE_TYPE_ARRAY)
    return CUDA_ERROR_INVALID_VALUE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (CUresult result = checkResource(s, resource))
    return result;
  // The driver requires arrays created for surface load/store.
  if (!(findArray(s, resource->res.array.hArray)->desc.Flags &
        CUDA_ARRAY3D_SURFACE_LDST))
    return CUDA_ERROR_INVALID_VALUE;
  unsigned long long id = s.nextObject++;
  s.surfaces[id] = *resource;
  appendLogLine("surface " + std::to_string(id) + " " +
                describeResource(s, *resource) + "\n");
  *surface = id;
  return CUDA_SUCCESS;
}

CUresult cuSurfObjectDestroy(CUsurfObject surface) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.surfaces.erase(surface))
    return CUDA_ERROR_INVALID_VALUE;
  appendLogLine("destroy surface " + std::to_string(surface) + "\n");
  return CUDA_SUCCESS;
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char value,
                         size_t width, size_t height) {
  for (size_t row = 0; row < height; ++row)
    std::memset(reinterpret_cast<char *>(dst) + row * pitch, value, width);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char value,
                           size_t width, size_t height, CUstream stream) {
  return submit(stream, CUgraphNode_st::Memset,
                [dst, pitch, value, width, height] {
                  return cuMemsetD2D8_v2(dst, pitch, value, width, height);
                });
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count) {
  return cuMemsetD2D8_v2(dst, count, value, count, 1);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count,
                         CUstream stream) {
  return submit(stream, CUgraphNode_st::Memset, [dst, value, count] {
    return cuMemsetD8_v2(dst, value, count);
  });
}

CUresult cuStreamCreateWithPriority(CUstream *stream, unsigned flags,
                                    int priority) {
  if (flags & ~1u)
    return CUDA_ERROR_INVALID_VALUE;
  *stream = reinterpret_cast<CUstream>(
      new FakeStream{flags, std::max(-5, std::min(0, priority))});
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  return cuStreamCreateWithPriority(stream, flags, 0);
}

CUresult cuStreamDestroy_v2(CUstream stream) {
  if (reinterpret_cast<uintptr_t>(stream) <= 2)
    return CUDA_ERROR_INVALID_HANDLE;
  {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    leaveCapture(*fakeStream(stream));
  }
  delete reinterpret_cast<FakeStream *>(stream);
  return CUDA_SUCCESS;
}

// Waiting for a capturing stream is not allowed: its work has not run.
CUresult cuStreamSynchronize(CUstream stream) {
  return refuseWhileCapturing(stream);
}

CUresult cuStreamQuery(CUstream stream) { return refuseWhileCapturing(stream); }

CUresult cuStreamGetFlags(CUstream stream, unsigned *flags) {
  *flags = fakeStream(stream)->flags;
  return CUDA_SUCCESS;
}

CUresult cuStreamGetPriority(CUstream stream, int *priority) {
  *priority = fakeStream(stream)->priority;
  return CUDA_SUCCESS;
}

// Waiting for an event recorded in a capture joins the capture: the
// stream's later work is captured too, after the work the event follows.
CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned) {
  auto *e = reinterpret_cast<FakeEvent *>(event);
  if (!e)
    return CUDA_ERROR_INVALID_HANDLE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::shared_ptr<FakeCapture> capture = e->capture;
  if (!capture || capture->ended)
    return CUDA_SUCCESS;
  FakeStream *fs = fakeStream(stream);
  if (fs->capture && fs->capture != capture)
    return CUDA_ERROR_STREAM_CAPTURE_MERGE;
  std::vector<CUgraphNode> dependencies = fs->dependencies;
  for (CUgraphNode node : e->dependencies)
    if (std::find(dependencies.begin(), dependencies.end(), node) ==
        dependencies.end())
      dependencies.push_back(node);
  if (!fs->capture) {
    fs->capture = capture;
    capture->members.push_back(fs);
  }
  setDependencies(*fs, std::move(dependencies));
  return CUDA_SUCCESS;
}

CUresult cuLaunchHostFunc(CUstream stream, CUhostFn fn, void *userData) {
  if (!fn)
    return CUDA_ERROR_INVALID_VALUE;
  return submit(stream, CUgraphNode_st::Host, [fn, userData] {
    fn(userData);
    return CUDA_SUCCESS;
  });
}

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  *event = reinterpret_cast<CUevent>(new FakeEvent{flags});
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  auto *e = reinterpret_cast<FakeEvent *>(event);
  if (!e)
    return CUDA_ERROR_INVALID_HANDLE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  // In a capture the event stands for the work captured so far, for other
  // streams to join the capture by waiting for it.
  FakeStream *fs = fakeStream(stream);
  e->capture = fs->capture;
  e->dependencies = fs->dependencies;
  if (fs->capture)
    return CUDA_SUCCESS;
  e->recorded = true;
  e->timeMs = nowMs();
  return CUDA_SUCCESS;
}

CUresult cuEventRecordWithFlags(CUevent event, CUstream stream, unsigned) {
  return cuEventRecord(event, stream);
}

CUresult cuEventQuery(CUevent event) {
  return event ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuEventSynchronize(CUevent event) { return cuEventQuery(event); }

CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  auto *first = reinterpret_cast<FakeEvent *>(start);
  auto *last = reinterpret_cast<FakeEvent *>(end);
  if (!first || !last || !first->recorded || !last->recorded ||
      ((first->flags | last->flags) & 2)) // CU_EVENT_DISABLE_TIMING
    return CUDA_ERROR_INVALID_HANDLE;
  *ms = static_cast<float>(last->timeMs - first->timeMs);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent event) {
  if (!event)
    return CUDA_ERROR_INVALID_HANDLE;
  delete reinterpret_cast<FakeEvent *>(event);
  return CUDA_SUCCESS;
}

// Stream capture and graphs.

CUresult cuStreamBeginCapture_v2(CUstream stream, int mode) {
  if (mode < CU_STREAM_CAPTURE_MODE_GLOBAL ||
      mode > CU_STREAM_CAPTURE_MODE_RELAXED)
    return CUDA_ERROR_INVALID_VALUE;
  if (isLegacyStream(stream))
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  FakeStream *fs = fakeStream(stream);
  if (fs->capture)
    return CUDA_ERROR_ILLEGAL_STATE;
  auto capture = std::make_shared<FakeCapture>();
  capture->graph = new CUgraph_st;
  capture->graph->capturing = true;
  s.graphs.insert(capture->graph);
  capture->origin = fs;
  capture->id = s.nextCaptureId++;
  capture->members.push_back(fs);
  fs->capture = std::move(capture);
  setDependencies(*fs, {});
  return CUDA_SUCCESS;
}

CUresult cuStreamEndCapture(CUstream stream, CUgraph *graph) {
  if (!graph)
    return CUDA_ERROR_INVALID_VALUE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  FakeStream *fs = fakeStream(stream);
  std::shared_ptr<FakeCapture> capture = fs->capture;
  if (!capture)
    return CUDA_ERROR_ILLEGAL_STATE;
  if (capture->origin != fs) {
    capture->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
  }
  // Every stream that joined the capture leaves it with its origin.
  while (!capture->members.empty())
    leaveCapture(*capture->members.back());
  capture->ended = true;
  capture->graph->capturing = false;
  if (capture->invalidated) {
    s.graphs.erase(capture->graph);
    delete capture->graph;
    *graph = nullptr;
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  }
  *graph = capture->graph;
  return CUDA_SUCCESS;
}

CUresult cuStreamGetCaptureInfo_v3(CUstream stream, int *status,
                                   unsigned long long *id, CUgraph *graph,
                                   const CUgraphNode **dependencies,
                                   const CUgraphEdgeData **edgeData,
                                   size_t *numDependencies) {
  if (!status || (edgeData && !dependencies))
    return CUDA_ERROR_INVALID_VALUE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  FakeStream *fs = fakeStream(stream);
  const FakeCapture *capture = fs->capture.get();
  *status = !capture               ? CU_STREAM_CAPTURE_STATUS_NONE
            : capture->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                   : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  // The rest is only valid while the capture is active.
  if (*status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
    return CUDA_SUCCESS;
  if (id)
    *id = capture->id;
  if (graph)
    *graph = capture->graph;
  if (dependencies)
    *dependencies = fs->dependencies.data();
  if (edgeData)
    *edgeData = fs->edgeData.data();
  if (numDependencies)
    *numDependencies = fs->dependencies.size();
  return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream stream, int *status) {
  return cuStreamGetCaptureInfo_v3(stream, status, nullptr, nullptr, nullptr,
                                   nullptr, nullptr);
}

CUresult cuThreadExchangeStreamCaptureMode(int *mode) {
  if (!mode || *mode < CU_STREAM_CAPTURE_MODE_GLOBAL ||
      *mode > CU_STREAM_CAPTURE_MODE_RELAXED)
    return CUDA_ERROR_INVALID_VALUE;
  std::swap(threadCaptureMode, *mode);
  return CUDA_SUCCESS;
}

CUresult cuGraphCreate(CUgraph *graph, unsigned flags) {
  if (!graph || flags)
    return CUDA_ERROR_INVALID_VALUE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  *graph = new CUgraph_st;
  s.graphs.insert(*graph);
  return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph graph) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.graphs.count(graph) || graph->capturing)
    return CUDA_ERROR_INVALID_VALUE;
  s.graphs.erase(graph);
  delete graph;
  return CUDA_SUCCESS;
}

CUresult cuGraphGetNodes(CUgraph graph, CUgraphNode *nodes, size_t *numNodes) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.graphs.count(graph) || !numNodes)
    return CUDA_ERROR_INVALID_VALUE;
  size_t count = graph->nodes.size();
  if (!nodes) {
    *numNodes = count;
    return CUDA_SUCCESS;
  }
  // Entries past the graph's nodes are cleared.
  for (size_t i = 0; i < *numNodes; ++i)
    nodes[i] = i < count ? graph->nodes[i].get() : nullptr;
  *numNodes = std::min(*numNodes, count);
  return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                     unsigned long long flags) {
  constexpr unsigned long long knownFlags =
      CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
      CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
      CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
      CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
  constexpr unsigned long long exclusiveFlags =
      CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
      CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH;
  if (!exec || (flags & ~knownFlags) ||
      (flags & exclusiveFlags) == exclusiveFlags)
    return CUDA_ERROR_INVALID_VALUE;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.graphs.count(graph) || graph->capturing)
    return CUDA_ERROR_INVALID_VALUE;
  auto *created = new CUgraphExec_st;
  for (const std::unique_ptr<CUgraphNode_st> &node : graph->nodes)
    created->nodes.push_back(*node);
  s.execs.insert(created);
  *exec = created;
  return CUDA_SUCCESS;
}

// An update succeeds when the graph has the executable graph's nodes, of
// the same kinds in the same order (the fake's graphs are chains); the
// executable graph then takes the graph's parameters.
CUresult cuGraphExecUpdate_v2(CUgraphExec exec, CUgraph graph,
                              CUgraphExecUpdateResultInfo *info) {
  if (!info)
    return CUDA_ERROR_INVALID_VALUE;
  *info =
      CUgraphExecUpdateResultInfo{CU_GRAPH_EXEC_UPDATE_ERROR, nullptr, nullptr};
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.execs.count(exec) || !s.graphs.count(graph) || graph->capturing)
    return CUDA_ERROR_INVALID_VALUE;
  if (exec->nodes.size() != graph->nodes.size()) {
    info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  }
  for (size_t i = 0; i < exec->nodes.size(); ++i)
    if (exec->nodes[i].kind != graph->nodes[i]->kind) {
      info->result = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
      info->errorNode = graph->nodes[i].get();
      return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
  for (size_t i = 0; i < exec->nodes.size(); ++i)
    exec->nodes[i] = *graph->nodes[i];
  info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  return CUDA_SUCCESS;
}

CUresult cuGraphUpload(CUgraphExec exec, CUstream) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.execs.count(exec) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// A launch runs the nodes at once, like all the fake's stream work; in a
// capturing stream it is captured as one (child graph) node.
CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  std::shared_ptr<const std::vector<CUgraphNode_st>> nodes;
  {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.execs.count(exec))
      return CUDA_ERROR_INVALID_VALUE;
    nodes = std::make_shared<const std::vector<CUgraphNode_st>>(exec->nodes);
  }
  return submit(stream, CUgraphNode_st::ChildGraph, [nodes] {
    for (const CUgraphNode_st &node : *nodes)
      if (CUresult result = node.run())
        return result;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.execs.erase(exec))
    return CUDA_ERROR_INVALID_VALUE;
  delete exec;
  return CUDA_SUCCESS;
}

} // extern "C"
