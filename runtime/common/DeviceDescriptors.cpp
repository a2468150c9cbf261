//===- DeviceDescriptors.cpp - devices.txt parser and occupancy -----------===//

#include "DeviceDescriptors.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace respec {
namespace tuning {
namespace {

using Field = int64_t DeviceDescriptor::*;

/// The integer keys of devices.txt. Required keys must appear in every
/// section: a descriptor with a silently defaulted limit would give plausible
/// but wrong occupancies, so the data file has to say what it means. The
/// optional ones have a default that is right for most devices (one register
/// partition, nothing reserved) or only describe (l2, clock, SIMD width).
struct IntKey {
  const char *name;
  Field field;
  bool required;
};

const IntKey intKeys[] = {
    {"sms", &DeviceDescriptor::sms, true},
    {"warp_size", &DeviceDescriptor::warpSize, true},
    {"max_threads_per_sm", &DeviceDescriptor::maxThreadsPerSM, true},
    {"max_threads_per_block", &DeviceDescriptor::maxThreadsPerBlock, true},
    {"max_blocks_per_sm", &DeviceDescriptor::maxBlocksPerSM, true},
    {"max_warps_per_sm", &DeviceDescriptor::maxWarpsPerSM, true},
    {"registers_per_sm", &DeviceDescriptor::registersPerSM, true},
    {"max_registers_per_thread", &DeviceDescriptor::maxRegistersPerThread,
     true},
    {"register_allocation_unit", &DeviceDescriptor::registerAllocationUnit,
     true},
    {"register_file_partitions", &DeviceDescriptor::registerFilePartitions,
     false},
    {"shared_per_sm", &DeviceDescriptor::sharedPerSM, true},
    {"shared_per_block", &DeviceDescriptor::sharedPerBlock, true},
    {"shared_allocation_unit", &DeviceDescriptor::sharedAllocationUnit, true},
    {"shared_reserved_per_block", &DeviceDescriptor::sharedReservedPerBlock,
     false},
    {"l2_bytes", &DeviceDescriptor::l2Bytes, false},
    {"simd_width_bits", &DeviceDescriptor::simdWidthBits, false},
    {"clock_mhz", &DeviceDescriptor::clockMHz, false},
};

/// Limits that must be positive on every device; a zero would make a GPU
/// hold no block (or divide by zero) instead of reporting the data error.
const char *const positiveOnEveryDevice[] = {
    "warp_size",        "max_threads_per_sm",       "max_threads_per_block",
    "max_blocks_per_sm", "max_warps_per_sm",        "register_file_partitions",
    "shared_per_sm",    "shared_per_block",         "shared_allocation_unit"};

/// Zero on a CPU means "filled in at run time" (sms) or "not a limit"
/// (registers); on a GPU these must be positive too.
const char *const positiveOnGPUs[] = {"sms", "registers_per_sm",
                                      "max_registers_per_thread",
                                      "register_allocation_unit"};

std::string_view trim(std::string_view s) {
  size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos)
    return {};
  size_t end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::string lower(std::string_view s) {
  std::string result(s);
  for (char &c : result)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

/// A non-negative decimal integer, optionally followed by KiB, MiB or GiB.
bool parseNumber(std::string_view text, int64_t &value) {
  constexpr int64_t max = std::numeric_limits<int64_t>::max();
  size_t i = 0;
  int64_t result = 0;
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
    return false;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
       ++i) {
    int digit = text[i] - '0';
    if (result > (max - digit) / 10)
      return false;
    result = result * 10 + digit;
  }
  std::string_view suffix = trim(text.substr(i));
  int64_t scale = 1;
  if (suffix.empty())
    scale = 1;
  else if (equalsIgnoreCase(suffix, "KiB"))
    scale = int64_t(1) << 10;
  else if (equalsIgnoreCase(suffix, "MiB"))
    scale = int64_t(1) << 20;
  else if (equalsIgnoreCase(suffix, "GiB"))
    scale = int64_t(1) << 30;
  else
    return false;
  if (result > max / scale)
    return false;
  value = result * scale;
  return true;
}

bool validSectionName(std::string_view name) {
  if (name.empty())
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' &&
        c != '.')
      return false;
  return true;
}

std::string lineError(int line, const std::string &message) {
  return "line " + std::to_string(line) + ": " + message;
}

/// One section while it is being read: the descriptor and the line each key
/// was set on (0: not set), for "missing" and "inconsistent" messages.
struct PendingSection {
  DeviceDescriptor device;
  std::vector<std::pair<std::string, int>> keyLines;

  int lineOf(std::string_view key) const {
    for (const auto &entry : keyLines)
      if (entry.first == key)
        return entry.second;
    return 0;
  }
};

const IntKey *findIntKey(std::string_view key) {
  for (const IntKey &k : intKeys)
    if (key == k.name)
      return &k;
  return nullptr;
}

/// Checks a finished section: required keys present, limits positive where
/// they must be, and the redundant keys consistent.
bool finishSection(const PendingSection &section, std::string &error) {
  const DeviceDescriptor &d = section.device;
  auto fail = [&](std::string_view key, const std::string &message) {
    int line = key.empty() ? 0 : section.lineOf(key);
    error = lineError(line ? line : d.line, "[" + d.name + "]: " + message);
    return false;
  };
  for (const char *key : {"vendor", "arch"})
    if (!section.lineOf(key))
      return fail("", std::string("missing required key '") + key + "'");
  for (const IntKey &k : intKeys)
    if (k.required && !section.lineOf(k.name))
      return fail("", std::string("missing required key '") + k.name + "'");
  for (const char *key : positiveOnEveryDevice)
    if (d.*findIntKey(key)->field <= 0)
      return fail(key, std::string(key) + " must be positive");
  if (!d.isCPU()) {
    for (const char *key : positiveOnGPUs)
      if (d.*findIntKey(key)->field <= 0)
        return fail(key, std::string(key) + " must be positive on a GPU");
    if (d.simdWidthBits != 0)
      return fail("simd_width_bits", "simd_width_bits is for cpu entries only");
  }
  if (d.maxThreadsPerSM % d.warpSize != 0 ||
      d.maxWarpsPerSM != d.maxThreadsPerSM / d.warpSize)
    return fail("max_warps_per_sm",
                "max_warps_per_sm (" + std::to_string(d.maxWarpsPerSM) +
                    ") must equal max_threads_per_sm / warp_size (" +
                    std::to_string(d.maxThreadsPerSM) + " / " +
                    std::to_string(d.warpSize) + ")");
  if (d.maxThreadsPerBlock > d.maxThreadsPerSM)
    return fail("max_threads_per_block",
                "max_threads_per_block exceeds max_threads_per_sm");
  if (d.sharedPerBlock > d.sharedPerSM)
    return fail("shared_per_block", "shared_per_block exceeds shared_per_sm");
  return true;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t unit) { return ceilDiv(a, unit) * unit; }

int64_t detectSimdWidthBits() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return 512;
  if (__builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx"))
    return 256;
  if (__builtin_cpu_supports("sse2"))
    return 128;
  return 64;
#elif defined(__aarch64__)
  return 128; // NEON; respec does not generate SVE code
#else
  return 64; // no vector unit assumed
#endif
}

} // namespace

bool parseDeviceDescriptors(std::string_view text,
                            std::vector<DeviceDescriptor> &out,
                            std::string &error) {
  std::vector<DeviceDescriptor> parsed;
  PendingSection section;
  bool inSection = false;
  int lineNumber = 0;

  auto closeSection = [&]() {
    if (!inSection)
      return true;
    if (!finishSection(section, error))
      return false;
    parsed.push_back(section.device);
    return true;
  };

  while (!text.empty()) {
    size_t newline = text.find('\n');
    std::string_view rawLine = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view()
                                             : text.substr(newline + 1);
    ++lineNumber;
    std::string_view line = rawLine.substr(0, rawLine.find('#'));
    line = trim(line);
    if (line.empty())
      continue;

    if (line.front() == '[') {
      if (line.back() != ']') {
        error = lineError(lineNumber, "expected ']' closing the section name");
        return false;
      }
      std::string_view name = trim(line.substr(1, line.size() - 2));
      if (!validSectionName(name)) {
        error = lineError(lineNumber, "bad device name '" + std::string(name) +
                                          "' (letters, digits, '-', '_', "
                                          "'.')");
        return false;
      }
      if (!closeSection())
        return false;
      for (const DeviceDescriptor &d : parsed)
        if (equalsIgnoreCase(d.name, name)) {
          error = lineError(lineNumber, "device [" + std::string(name) +
                                            "] already defined on line " +
                                            std::to_string(d.line));
          return false;
        }
      section = PendingSection();
      section.device.name = std::string(name);
      section.device.line = lineNumber;
      inSection = true;
      continue;
    }

    size_t equals = line.find('=');
    if (equals == std::string_view::npos) {
      error = lineError(lineNumber, "expected 'key = value' or '[device]', got '" +
                                        std::string(line) + "'");
      return false;
    }
    std::string_view key = trim(line.substr(0, equals));
    std::string_view value = trim(line.substr(equals + 1));
    if (!inSection) {
      error = lineError(lineNumber, "'" + std::string(key) +
                                        "' is outside any [device] section");
      return false;
    }
    const IntKey *intKey = findIntKey(key);
    if (!intKey && key != "vendor" && key != "arch") {
      error = lineError(lineNumber, "unknown key '" + std::string(key) + "'");
      return false;
    }
    if (int previous = section.lineOf(key)) {
      error = lineError(lineNumber, "key '" + std::string(key) +
                                        "' already set on line " +
                                        std::to_string(previous));
      return false;
    }
    if (value.empty()) {
      error = lineError(lineNumber, "no value for '" + std::string(key) + "'");
      return false;
    }
    DeviceDescriptor &d = section.device;
    if (key == "vendor") {
      d.vendor = lower(value);
      if (d.vendor != "nvidia" && d.vendor != "amd" && d.vendor != "cpu") {
        error = lineError(lineNumber, "vendor must be nvidia, amd or cpu, not '" +
                                          std::string(value) + "'");
        return false;
      }
    } else if (key == "arch") {
      if (value.find_first_of(" \t") != std::string_view::npos) {
        error = lineError(lineNumber, "bad arch '" + std::string(value) + "'");
        return false;
      }
      d.arch = std::string(value);
    } else if (!parseNumber(value, d.*intKey->field)) {
      error = lineError(lineNumber, "bad number '" + std::string(value) +
                                        "' for '" + std::string(key) +
                                        "' (a non-negative integer, optionally "
                                        "with KiB, MiB or GiB)");
      return false;
    }
    section.keyLines.emplace_back(std::string(key), lineNumber);
  }
  if (!closeSection())
    return false;
  out.insert(out.end(), parsed.begin(), parsed.end());
  return true;
}

bool loadDeviceDescriptors(const std::string &path,
                           std::vector<DeviceDescriptor> &out,
                           std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot open the device descriptor file";
    return false;
  }
  std::ostringstream contents;
  contents << file.rdbuf();
  if (file.bad()) {
    error = path + ": cannot read the device descriptor file";
    return false;
  }
  if (!parseDeviceDescriptors(contents.str(), out, error)) {
    // "line N: problem" -> "path:N: problem", the usual compiler form.
    const std::string prefix = "line ";
    if (error.compare(0, prefix.size(), prefix) == 0)
      error = path + ":" + error.substr(prefix.size());
    else
      error = path + ": " + error;
    return false;
  }
  return true;
}

const DeviceDescriptor *findDevice(const std::vector<DeviceDescriptor> &devices,
                                   std::string_view name) {
  for (const DeviceDescriptor &d : devices)
    if (equalsIgnoreCase(d.name, name))
      return &d;
  for (const DeviceDescriptor &d : devices)
    if (equalsIgnoreCase(d.arch, name))
      return &d;
  return nullptr;
}

DeviceDescriptor hostCPUDescriptor(const DeviceDescriptor &templateEntry) {
  DeviceDescriptor d = templateEntry;
  if (d.sms <= 0) {
    unsigned cores = std::thread::hardware_concurrency();
    d.sms = cores > 0 ? cores : 1; // 0 means "unknown"; one core exists
  }
  if (d.simdWidthBits <= 0)
    d.simdWidthBits = detectSimdWidthBits();
#if defined(__linux__) && defined(_SC_LEVEL2_CACHE_SIZE)
  if (d.l2Bytes <= 0) {
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l2 > 0)
      d.l2Bytes = l2;
  }
#endif
  if (d.arch.empty() || equalsIgnoreCase(d.arch, "host")) {
#if defined(__x86_64__)
    d.arch = "x86_64";
#elif defined(__aarch64__)
    d.arch = "aarch64";
#endif
  }
  return d;
}

int64_t residentBlocksPerSM(const DeviceDescriptor &d, int64_t threadsPerBlock,
                            int64_t registersPerThread,
                            int64_t sharedBytesPerBlock) {
  if (threadsPerBlock <= 0 || registersPerThread < 0 ||
      sharedBytesPerBlock < 0 || d.warpSize <= 0 || d.maxWarpsPerSM <= 0)
    return 0;
  // Launch limits: a block over them is rejected, not merely slow.
  if (threadsPerBlock > d.maxThreadsPerBlock ||
      sharedBytesPerBlock > d.sharedPerBlock)
    return 0;

  // Warps are the unit of scheduling: a 33-thread block takes 2 warp slots.
  int64_t warpsPerBlock = ceilDiv(threadsPerBlock, d.warpSize);
  int64_t blocks = std::min(d.maxBlocksPerSM, d.maxWarpsPerSM / warpsPerBlock);

  // Registers (0 per thread: unknown, not counted; registersPerSM 0: the CPU,
  // where registers spill to the stack instead of limiting residency).
  if (d.registersPerSM > 0 && registersPerThread > 0) {
    if (d.maxRegistersPerThread > 0 &&
        registersPerThread > d.maxRegistersPerThread)
      return 0;
    // Each warp gets whole allocation units, all from one partition of the
    // register file (an NVIDIA SM sub-partition, an AMD SIMD), so what is
    // left over in one partition cannot host part of another warp.
    int64_t unit = std::max<int64_t>(d.registerAllocationUnit, 1);
    int64_t partitions = std::max<int64_t>(d.registerFilePartitions, 1);
    int64_t perWarp = roundUp(registersPerThread * d.warpSize, unit);
    // The launch check of NVIDIA hardware assumes a block's warps are spread
    // over all partitions at once (cuda_occupancy.h, "hardware check").
    if (perWarp * roundUp(warpsPerBlock, partitions) > d.registersPerSM)
      return 0;
    int64_t warpsPerPartition = (d.registersPerSM / partitions) / perWarp;
    blocks = std::min(blocks, warpsPerPartition * partitions / warpsPerBlock);
  }

  // Shared memory: the user's bytes plus what the system reserves per block,
  // rounded up to the allocation unit, out of the SM's (largest) carve-out.
  int64_t shared = sharedBytesPerBlock + d.sharedReservedPerBlock;
  if (shared > 0) {
    int64_t allocated =
        roundUp(shared, std::max<int64_t>(d.sharedAllocationUnit, 1));
    blocks = std::min(blocks, d.sharedPerSM / allocated);
  }
  return std::max<int64_t>(blocks, 0);
}

double occupancy(const DeviceDescriptor &d, int64_t threadsPerBlock,
                 int64_t registersPerThread, int64_t sharedBytesPerBlock) {
  int64_t blocks = residentBlocksPerSM(d, threadsPerBlock, registersPerThread,
                                       sharedBytesPerBlock);
  if (blocks == 0)
    return 0.0;
  int64_t warps = blocks * ceilDiv(threadsPerBlock, d.warpSize);
  return static_cast<double>(warps) / static_cast<double>(d.maxWarpsPerSM);
}

} // namespace tuning
} // namespace respec
