// Device descriptors (runtime/data/devices.txt and its parser), the occupancy
// calculation and the grid-geometry heuristic.

#include "RuntimeTest.h"

#include "../../runtime/common/DeviceDescriptors.h"
#include "../../runtime/common/GeometryHeuristic.h"

#include <cmath>
#include <string>
#include <vector>

using namespace respec::tuning;

namespace {

std::vector<DeviceDescriptor> devices;

const DeviceDescriptor &device(const char *name) {
  static const DeviceDescriptor none;
  const DeviceDescriptor *d = findDevice(devices, name);
  if (!d) {
    std::fprintf(stderr, "device %s not found\n", name);
    ++testFailures;
    return none;
  }
  return *d;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Parses `text`, which must fail with an error containing every part.
void expectParseError(const char *text, std::vector<std::string> parts) {
  std::vector<DeviceDescriptor> out(1); // must stay untouched
  std::string error;
  bool ok = parseDeviceDescriptors(text, out, error);
  CHECK(!ok);
  CHECK(out.size() == 1);
  for (const std::string &part : parts)
    if (!contains(error, part)) {
      std::fprintf(stderr, "error \"%s\" lacks \"%s\"\n", error.c_str(),
                   part.c_str());
      ++testFailures;
    }
}

/// A complete, valid GPU section, so each error case changes one thing.
const char *const validBody = "vendor = nvidia\n"
                              "arch = sm_80\n"
                              "sms = 2\n"
                              "warp_size = 32\n"
                              "max_threads_per_sm = 2048\n"
                              "max_threads_per_block = 1024\n"
                              "max_blocks_per_sm = 32\n"
                              "max_warps_per_sm = 64\n"
                              "registers_per_sm = 65536\n"
                              "max_registers_per_thread = 255\n"
                              "register_allocation_unit = 256\n"
                              "shared_per_sm = 164 KiB\n"
                              "shared_per_block = 163 KiB\n"
                              "shared_allocation_unit = 128\n";

void testDataFile() {
  std::string error;
  bool ok = loadDeviceDescriptors(RESPEC_DEVICES_SOURCE, devices, error);
  if (!ok)
    std::fprintf(stderr, "%s\n", error.c_str());
  CHECK(ok);

  for (const char *name : {"A4000", "A100", "H100", "H200", "RX6800", "MI210",
                           "MI250", "host-cpu"})
    CHECK(findDevice(devices, name) != nullptr);

  const DeviceDescriptor &a4000 = device("A4000");
  CHECK(a4000.vendor == "nvidia" && a4000.arch == "sm_86");
  CHECK(a4000.sms == 48 && a4000.maxThreadsPerSM == 1536 &&
        a4000.maxBlocksPerSM == 16 && a4000.sharedPerSM == 100 * 1024);

  const DeviceDescriptor &a100 = device("A100");
  CHECK(a100.arch == "sm_80" && a100.sms == 108 && a100.warpSize == 32);
  CHECK(a100.sharedPerSM == 167936 && a100.sharedPerBlock == 166912);
  CHECK(a100.l2Bytes == 40 * 1024 * 1024);

  const DeviceDescriptor &h100 = device("H100");
  CHECK(h100.vendor == "nvidia" && h100.arch == "sm_90");
  CHECK(h100.sms == 132 && h100.warpSize == 32);
  CHECK(h100.maxWarpsPerSM == 64 && h100.registersPerSM == 65536);
  CHECK(h100.sharedPerBlock == 227 * 1024 && h100.sharedReservedPerBlock == 1024);
  CHECK(device("H200").sms == 132 && device("H200").arch == "sm_90");

  const DeviceDescriptor &rx6800 = device("RX6800");
  CHECK(rx6800.vendor == "amd" && rx6800.arch == "gfx1030");
  CHECK(rx6800.warpSize == 32 && rx6800.sms == 30); // WGPs (60 CUs)

  const DeviceDescriptor &mi210 = device("MI210");
  CHECK(mi210.vendor == "amd" && mi210.arch == "gfx90a");
  CHECK(mi210.warpSize == 64 && mi210.sms == 104);
  CHECK(mi210.maxWarpsPerSM == 32 && mi210.sharedPerBlock == 65536);
  CHECK(device("MI250").sms == 104 && device("MI250").warpSize == 64);

  const DeviceDescriptor &cpu = device("host-cpu");
  CHECK(cpu.vendor == "cpu" && cpu.isCPU());
  CHECK(cpu.sms == 0 && cpu.simdWidthBits == 0); // filled at run time

  // Every GPU entry is plausible as a whole.
  for (const DeviceDescriptor &d : devices) {
    CHECK(d.warpSize == 32 || d.warpSize == 64);
    CHECK(d.maxWarpsPerSM * d.warpSize == d.maxThreadsPerSM);
    CHECK(d.maxThreadsPerBlock == 1024);
    if (d.isCPU())
      continue;
    CHECK(d.sms >= 30 && d.sms <= 200);
    CHECK(d.registersPerSM >= 65536 && d.maxRegistersPerThread >= 255);
    CHECK(d.sharedPerBlock >= 64 * 1024 && d.sharedPerBlock <= d.sharedPerSM);
    CHECK(d.l2Bytes >= 4 * 1024 * 1024 && d.clockMHz >= 1000);
    CHECK(residentBlocksPerSM(d, 256, 32, 0) >= 1);
  }

  // Lookup: case-insensitive names, then the first entry of an arch.
  CHECK(findDevice(devices, "h100") == &h100);
  CHECK(findDevice(devices, "sm_90") == &h100);
  CHECK(findDevice(devices, "SM_80") == &a100);
  CHECK(findDevice(devices, "gfx90a") == &mi210);
  CHECK(findDevice(devices, "V100") == nullptr);

  // The build copies the file to <build>/share/respec/devices.txt.
  std::vector<DeviceDescriptor> copied;
  ok = loadDeviceDescriptors(RESPEC_DEVICES_BUILD, copied, error);
  if (!ok)
    std::fprintf(stderr, "%s\n", error.c_str());
  CHECK(ok && copied.size() == devices.size());
}

void testParser() {
  // Comments, blank lines, spaces, CRLF, suffixes, optional keys' defaults.
  std::string text = std::string("# a comment\n\n  [Toy-1]  # trailing\r\n") +
                     validBody + "l2_bytes = 2 MiB\n";
  std::vector<DeviceDescriptor> out;
  std::string error;
  CHECK(parseDeviceDescriptors(text, out, error));
  CHECK(out.size() == 1);
  if (out.size() == 1) {
    CHECK(out[0].name == "Toy-1" && out[0].line == 3);
    CHECK(out[0].sharedPerSM == 164 * 1024 && out[0].l2Bytes == 2 << 20);
    CHECK(out[0].registerFilePartitions == 1 &&
          out[0].sharedReservedPerBlock == 0 && out[0].clockMHz == 0);
  }
  CHECK(parseDeviceDescriptors("", out, error) && out.size() == 1);

  std::string unknownKey = std::string("[X]\n") + validBody + "colour = 3\n";
  expectParseError(unknownKey.c_str(), {"line 16", "unknown key 'colour'"});
  std::string badNumber =
      std::string("[X]\nvendor = nvidia\nsms = 12x\n") + validBody;
  expectParseError(badNumber.c_str(), {"line 3", "bad number '12x'", "'sms'"});
  expectParseError("[X]\nsms = -1\n", {"line 2", "bad number '-1'"});
  expectParseError("[X]\nsms = 99999999999999999999\n",
                   {"line 2", "bad number"});
  expectParseError("[X]\nsms = 4 KB\n", {"line 2", "bad number '4 KB'"});
  expectParseError("# no section yet\nsms = 4\n[X]\n",
                   {"line 2", "outside any [device] section"});
  std::string missing = std::string(validBody);
  missing.erase(missing.find("sms = 2\n"), 8);
  missing = "\n[X]\n" + missing;
  expectParseError(missing.c_str(), {"line 2", "[X]", "missing required key 'sms'"});
  std::string twice = std::string("[X]\n") + validBody + "sms = 3\n";
  expectParseError(twice.c_str(), {"line 16", "'sms' already set on line 4"});
  std::string twoDevices =
      std::string("[X]\n") + validBody + "[x]\n" + validBody;
  expectParseError(twoDevices.c_str(), {"line 16", "already defined on line 1"});
  expectParseError("[X]\nvendor = intel\n", {"line 2", "vendor must be"});
  expectParseError("[X]\nwhat\n", {"line 2", "expected 'key = value'"});
  expectParseError("[X\n", {"line 1", "']'"});
  expectParseError("[]\n", {"line 1", "bad device name"});
  std::string inconsistent = std::string("[X]\n") + validBody;
  inconsistent.replace(inconsistent.find("max_warps_per_sm = 64"), 21,
                       "max_warps_per_sm = 48");
  expectParseError(inconsistent.c_str(), {"line 9", "max_warps_per_sm (48)"});
  std::string zeroWarp = std::string("[X]\n") + validBody;
  zeroWarp.replace(zeroWarp.find("sms = 2"), 7, "sms = 0");
  expectParseError(zeroWarp.c_str(), {"line 4", "sms must be positive"});
  std::string gpuSimd = std::string("[X]\n") + validBody + "simd_width_bits = 256\n";
  expectParseError(gpuSimd.c_str(), {"line 16", "cpu entries only"});

  std::vector<DeviceDescriptor> none;
  CHECK(!loadDeviceDescriptors("/nonexistent/devices.txt", none, error));
  CHECK(contains(error, "/nonexistent/devices.txt") && none.empty());
}

void testHostCPU() {
  const DeviceDescriptor &tmpl = device("host-cpu");
  DeviceDescriptor host = hostCPUDescriptor(tmpl);
  CHECK(host.sms >= 1);
  CHECK(host.simdWidthBits == 64 || host.simdWidthBits == 128 ||
        host.simdWidthBits == 256 || host.simdWidthBits == 512);
#if defined(__x86_64__)
  CHECK(host.arch == "x86_64" && host.simdWidthBits >= 128);
#elif defined(__aarch64__)
  CHECK(host.arch == "aarch64" && host.simdWidthBits == 128);
#endif
  std::printf("host CPU: %lld cores, %lld-bit SIMD, L2 %lld bytes\n",
              static_cast<long long>(host.sms),
              static_cast<long long>(host.simdWidthBits),
              static_cast<long long>(host.l2Bytes));
  // Values in the template are kept.
  DeviceDescriptor pinned = tmpl;
  pinned.sms = 7;
  pinned.simdWidthBits = 256;
  DeviceDescriptor kept = hostCPUDescriptor(pinned);
  CHECK(kept.sms == 7 && kept.simdWidthBits == 256);
  // One block per core; registers never limit a CPU.
  CHECK(residentBlocksPerSM(host, 1024, 255, 0) == 1);
  CHECK(residentBlocksPerSM(host, 32, 0, 48 * 1024) == 1);
  CHECK(residentBlocksPerSM(host, 1025, 0, 0) == 0);
  CHECK(residentBlocksPerSM(host, 256, 0, 100 * 1024) == 0);
}

void testOccupancy() {
  const DeviceDescriptor &a100 = device("A100");
  // 8 warps per block, 64 warp slots: 8 blocks; 32 regs x 32 lanes = 1024
  // per warp, 16 warps per 16K-register partition: 64 warps, no limit.
  CHECK(residentBlocksPerSM(a100, 256, 32, 0) == 8);
  CHECK(std::fabs(occupancy(a100, 256, 32, 0) - 1.0) < 1e-12);
  // Register-limited: 64 regs -> 2048 per warp, 8 warps per partition,
  // 32 warps = 4 blocks of 8 warps (occupancy 0.5).
  CHECK(residentBlocksPerSM(a100, 256, 64, 0) == 4);
  CHECK(std::fabs(occupancy(a100, 256, 64, 0) - 0.5) < 1e-12);
  // 40 regs -> 1280 per warp, 12 warps per partition = 48 warps: 6 blocks.
  CHECK(residentBlocksPerSM(a100, 256, 40, 0) == 6);
  // Partitions matter: 200 regs -> 6400 per warp; a 16384-register partition
  // holds 2 (not 2.56) warps, so 8 one-warp blocks, where 65536 / 6400 would
  // suggest 10.
  CHECK(residentBlocksPerSM(a100, 32, 200, 0) == 8);
  // 255 regs -> 8160, rounded to 8192 per warp: 8 warps per SM, 1 block of
  // 256 threads; 1024 threads need 32 x 8192 > 65536: does not fit.
  CHECK(residentBlocksPerSM(a100, 256, 255, 0) == 1);
  CHECK(residentBlocksPerSM(a100, 1024, 255, 0) == 0);
  CHECK(residentBlocksPerSM(a100, 256, 256, 0) == 0); // over 255 per thread
  // Block limit: 32 blocks of one warp although 64 warps would fit.
  CHECK(residentBlocksPerSM(a100, 32, 16, 0) == 32);
  // Shared-memory-limited: 48 KiB + 1 KiB reserved = 50176 bytes per block,
  // 167936 / 50176 = 3.3 -> 3.
  CHECK(residentBlocksPerSM(a100, 128, 16, 48 * 1024) == 3);
  // The reserved KiB and the 128-byte unit matter: 41000 + 1024 -> 42112,
  // 167936 / 42112 = 3.99 -> 3 (41000 alone would give 4).
  CHECK(residentBlocksPerSM(a100, 128, 16, 41000) == 3);
  // Does not fit: shared over the opt-in maximum, too many threads.
  CHECK(residentBlocksPerSM(a100, 128, 16, 163 * 1024) == 1);
  CHECK(residentBlocksPerSM(a100, 128, 16, 163 * 1024 + 1) == 0);
  CHECK(residentBlocksPerSM(a100, 2048, 16, 0) == 0);
  CHECK(residentBlocksPerSM(a100, 0, 16, 0) == 0);
  CHECK(occupancy(a100, 2048, 16, 0) == 0.0);

  // sm_86: 48 warps, 16 blocks per SM.
  const DeviceDescriptor &a4000 = device("A4000");
  CHECK(residentBlocksPerSM(a4000, 1024, 32, 0) == 1);
  CHECK(residentBlocksPerSM(a4000, 256, 32, 0) == 6);
  CHECK(residentBlocksPerSM(a4000, 32, 32, 0) == 16);
  CHECK(std::fabs(occupancy(a4000, 1024, 32, 0) - 32.0 / 48.0) < 1e-12);

  // sm_90: 227 KiB fits once, 228 KiB does not.
  const DeviceDescriptor &h100 = device("H100");
  CHECK(residentBlocksPerSM(h100, 256, 32, 227 * 1024) == 1);
  CHECK(residentBlocksPerSM(h100, 256, 32, 228 * 1024) == 0);
  CHECK(residentBlocksPerSM(h100, 256, 32, 100 * 1024) == 2);

  // gfx90a, wave64: 256 threads = 4 waves; 64 VGPRs -> 8 waves per SIMD
  // (LLVM: 512 / 64), 32 waves per CU = 8 blocks; 128 VGPRs -> 4 per SIMD,
  // 16 waves = 4 blocks; 32 KiB LDS of 64 KiB -> 2 blocks.
  const DeviceDescriptor &mi210 = device("MI210");
  CHECK(residentBlocksPerSM(mi210, 256, 64, 0) == 8);
  CHECK(residentBlocksPerSM(mi210, 256, 128, 0) == 4);
  CHECK(residentBlocksPerSM(mi210, 256, 512, 0) == 1);
  CHECK(residentBlocksPerSM(mi210, 256, 32, 32 * 1024) == 2);
  CHECK(residentBlocksPerSM(mi210, 1024, 32, 0) == 2);

  // gfx1030 per WGP: 64 wave32 slots; 1024 threads = 32 waves: 2 blocks.
  const DeviceDescriptor &rx6800 = device("RX6800");
  CHECK(residentBlocksPerSM(rx6800, 1024, 32, 0) == 2);
  CHECK(residentBlocksPerSM(rx6800, 256, 32, 48 * 1024) == 2);
}

void testHeuristic() {
  const DeviceDescriptor &a100 = device("A100");
  const std::vector<int64_t> pow2 = {1, 2, 4, 8};

  // One wave of 256-thread, 32-register blocks on A100: 108 x 8 = 864.
  LaunchShape shape{100, 256, 32, 0};
  CHECK(deviceWaveBlocks(a100, shape) == 864);
  CHECK(classifyLaunch(a100, shape) == LoopClass::Short);
  CHECK(idealBlocksInFlight(a100, shape) == 100);
  CHECK(chooseBlockCoarsening(a100, shape, pow2) == 1);

  shape.gridBlocks = 1000; // between one wave and two
  CHECK(classifyLaunch(a100, shape) == LoopClass::Ideal);
  CHECK(chooseBlockCoarsening(a100, shape, pow2) == 1);

  shape.gridBlocks = 100000; // 115 waves
  CHECK(classifyLaunch(a100, shape) == LoopClass::Long);
  CHECK(idealBlocksInFlight(a100, shape) == 864);
  int64_t factor = chooseBlockCoarsening(a100, shape, pow2);
  CHECK(factor > 1);
  CHECK(factor == 8);
  CHECK(chooseBlockCoarsening(a100, shape, {1, 3, 100, 200}) == 100);

  shape.gridBlocks = 1728; // exactly two waves: Long, factor 2 at most
  CHECK(classifyLaunch(a100, shape) == LoopClass::Long);
  CHECK(chooseBlockCoarsening(a100, shape, pow2) == 2);
  CHECK(chooseBlockCoarsening(a100, shape, {1, 3}) == 1);
  shape.gridBlocks = 1727;
  CHECK(classifyLaunch(a100, shape) == LoopClass::Ideal);

  // Register pressure shrinks the wave: 64 regs -> 4 blocks per SM.
  LaunchShape heavy{100000, 256, 64, 0};
  CHECK(deviceWaveBlocks(a100, heavy) == 432);
  CHECK(chooseBlockCoarsening(a100, heavy, {1, 2, 4, 8, 16, 32, 64, 128, 256,
                                            512}) == 128); // 100000/432 = 231

  // A block that does not fit: Short, no coarsening.
  LaunchShape tooBig{100000, 256, 32, 200 * 1024};
  CHECK(classifyLaunch(a100, tooBig) == LoopClass::Short);
  CHECK(chooseBlockCoarsening(a100, tooBig, pow2) == 1);

  // The CPU: 16 cores hold 16 blocks, a long launch keeps 64 in flight.
  DeviceDescriptor cpu = device("host-cpu");
  cpu.sms = 16;
  cpu = hostCPUDescriptor(cpu);
  LaunchShape cpuShape{10, 256, 0, 0};
  CHECK(deviceWaveBlocks(cpu, cpuShape) == 16);
  CHECK(classifyLaunch(cpu, cpuShape) == LoopClass::Short);
  cpuShape.gridBlocks = 100;
  CHECK(classifyLaunch(cpu, cpuShape) == LoopClass::Ideal);
  CHECK(chooseBlockCoarsening(cpu, cpuShape, pow2) == 1);
  cpuShape.gridBlocks = 1000;
  CHECK(classifyLaunch(cpu, cpuShape) == LoopClass::Long);
  CHECK(idealBlocksInFlight(cpu, cpuShape) == 16 * kCPUBlocksPerCore);
  CHECK(chooseBlockCoarsening(cpu, cpuShape, {1, 2, 4, 8, 16}) == 8);

  // Invariants over devices, shapes and factor sets: the factor is one of
  // those offered, never exceeds gridBlocks / idealBlocksInFlight, and the
  // coarsened grid keeps at least idealBlocksInFlight blocks.
  std::vector<DeviceDescriptor> all = devices;
  for (DeviceDescriptor &d : all)
    if (d.isCPU())
      d = hostCPUDescriptor(d);
  const std::vector<std::vector<int64_t>> factorSets = {
      {1}, {1, 2, 4, 8}, {1, 3, 5, 7}, {1, 2, 3, 4, 6, 8, 12, 16, 32, 64}};
  int checked = 0;
  for (const DeviceDescriptor &d : all)
    for (int64_t grid : {1, 7, 64, 500, 1000, 4096, 65535, 1000000,
                         2147483647})
      for (int64_t threads : {32, 64, 128, 256, 1024})
        for (int64_t regs : {0, 32, 96, 255})
          for (const auto &factors : factorSets) {
            LaunchShape s{grid, threads, regs, 0};
            int64_t f = chooseBlockCoarsening(d, s, factors);
            int64_t ideal = idealBlocksInFlight(d, s);
            bool offered = false;
            for (int64_t candidate : factors)
              offered = offered || candidate == f;
            CHECK(offered);
            CHECK(f >= 1);
            if (ideal > 0) {
              CHECK(f <= grid / ideal);
              CHECK(grid / f >= ideal);
            }
            LoopClass c = classifyLaunch(d, s);
            if (c != LoopClass::Long)
              CHECK(f == 1);
            ++checked;
          }
  std::printf("heuristic invariants checked on %d launches\n", checked);
  std::printf("A100, 100000 x 256 threads: %s, factor %lld of {1,2,4,8}\n",
              loopClassName(classifyLaunch(a100, LaunchShape{100000, 256, 32, 0})),
              static_cast<long long>(factor));
}

} // namespace

int main() {
  testDataFile();
  testParser();
  testHostCPU();
  testOccupancy();
  testHeuristic();
  return finishTest("TuningTest");
}
