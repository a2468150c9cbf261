//===- DeviceDescriptors.h - What respec knows about each device ----------===//
//
// Device descriptors (SMs, warp size, per-SM and per-block limits, allocation
// granularities, caches, SIMD width) read from runtime/data/devices.txt, which
// is installed as <prefix>/share/respec/devices.txt, and the CUDA occupancy
// calculation over them. Plain C++17 with no LLVM or CUDA dependency, so the
// runtime library and the compiler share one implementation.
//
// The file format and the meaning of every key are documented at the top of
// devices.txt.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_DEVICEDESCRIPTORS_H
#define RESPEC_RUNTIME_COMMON_DEVICEDESCRIPTORS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace respec {
namespace tuning {

/// One device. "SM" is an NVIDIA streaming multiprocessor, an AMD compute
/// unit (or work-group processor) or a CPU core. Sizes are in bytes,
/// registers are 32-bit registers.
struct DeviceDescriptor {
  std::string name;   ///< the [section] name, e.g. "H100"
  std::string vendor; ///< "nvidia", "amd" or "cpu"
  std::string arch;   ///< "sm_90", "gfx90a", "host", ...
  int64_t sms = 0;
  int64_t warpSize = 0;
  int64_t maxThreadsPerSM = 0;
  int64_t maxThreadsPerBlock = 0;
  int64_t maxBlocksPerSM = 0;
  int64_t maxWarpsPerSM = 0;
  int64_t registersPerSM = 0;          ///< 0: registers limit nothing (CPU)
  int64_t maxRegistersPerThread = 0;   ///< 0: no limit (CPU)
  int64_t registerAllocationUnit = 0;  ///< per warp; 0: no rounding (CPU)
  int64_t registerFilePartitions = 1;  ///< a warp's registers come from one
  int64_t sharedPerSM = 0;
  int64_t sharedPerBlock = 0;          ///< the opt-in maximum
  int64_t sharedAllocationUnit = 0;
  int64_t sharedReservedPerBlock = 0;  ///< system use, added to each block's
  int64_t l2Bytes = 0;                 ///< 0: unknown
  int64_t simdWidthBits = 0;           ///< CPU only; 0: not known yet
  int64_t clockMHz = 0;                ///< peak clock; 0: unknown
  int line = 0; ///< line of the [section] header in the file (diagnostics)

  bool isCPU() const { return vendor == "cpu"; }
};

/// Parses the devices.txt format and appends the entries to `out`, in file
/// order. On failure returns false, leaves `out` unchanged and sets `error` to
/// "line N: <problem>".
bool parseDeviceDescriptors(std::string_view text,
                            std::vector<DeviceDescriptor> &out,
                            std::string &error);

/// Reads and parses the file at `path`; errors are "<path>:<N>: <problem>",
/// or "<path>: <reason>" when the file cannot be read.
bool loadDeviceDescriptors(const std::string &path,
                           std::vector<DeviceDescriptor> &out,
                           std::string &error);

/// The entry named `name` (case-insensitively), or else the first entry whose
/// arch is `name` (so "sm_90" finds the first sm_90 device listed), or null.
const DeviceDescriptor *findDevice(const std::vector<DeviceDescriptor> &devices,
                                   std::string_view name);

/// `templateEntry` (normally [host-cpu]) completed for the machine this runs
/// on: sms = std::thread::hardware_concurrency(), simdWidthBits = 512 with
/// AVX-512F, 256 with AVX/AVX2, 128 with SSE2 or on AArch64 (NEON), 64
/// otherwise, l2Bytes from the OS and arch = "x86_64"/"aarch64" when the
/// template says "host". Non-zero values in the template are kept, so a data
/// file can pin them.
DeviceDescriptor hostCPUDescriptor(const DeviceDescriptor &templateEntry);

/// How many blocks of this shape one SM holds at once: the CUDA occupancy
/// calculation (as cuda_occupancy.h does it), limited by warps, by the block
/// limit, by registers (allocated per warp in units of registerAllocationUnit,
/// each warp within one register-file partition) and by shared memory
/// (user bytes + reserved bytes, rounded up to sharedAllocationUnit). Returns
/// 0 when one block does not fit at all (too many threads, registers per
/// thread or shared bytes).
int64_t residentBlocksPerSM(const DeviceDescriptor &device,
                            int64_t threadsPerBlock, int64_t registersPerThread,
                            int64_t sharedBytesPerBlock);

/// Resident warps / maxWarpsPerSM, in [0, 1].
double occupancy(const DeviceDescriptor &device, int64_t threadsPerBlock,
                 int64_t registersPerThread, int64_t sharedBytesPerBlock);

} // namespace tuning
} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_DEVICEDESCRIPTORS_H
