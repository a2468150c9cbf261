//===- SliceGroupsTest.cpp - Blocks run as slices that meet at barriers ---===//
//
// The runtime side of respec-parallelize-few-block-grids for kernels with
// barriers: the groups a launching thread sets up, their shared memory and
// per-thread storage, and the barrier their slices meet at. Threads of the
// test stand for the OpenMP team; each plays one slice of one block.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

#include <cstdint>
#include <thread>
#include <vector>

extern "C" {
int __respec_slice_team_size(void);
int32_t __respec_slice_team_ready(void *groups);
void *__respec_slice_groups_begin(uint64_t groups, uint64_t slices,
                                  uint64_t sharedBytes,
                                  uint64_t perThreadBytes);
void *__respec_slice_group_shared(void *groups, uint64_t group);
void *__respec_slice_group_private(void *groups, uint64_t group);
void __respec_slice_barrier(void *groups, uint64_t group);
}

namespace {

constexpr int kGroups = 2, kSlices = 3, kPhases = 200;

/// Slice `slice` of block `group`: in each phase it writes its entry of the
/// block's shared memory, meets the other slices, checks theirs, and meets
/// them again before the next phase overwrites them. Returns the number of
/// wrong values it saw.
int runSlice(void *groups, int group, int slice) {
  auto *shared =
      static_cast<volatile int *>(__respec_slice_group_shared(groups, group));
  auto *perThread =
      static_cast<int *>(__respec_slice_group_private(groups, group));
  int wrong = 0;
  for (int phase = 0; phase < kPhases; ++phase) {
    shared[slice] = phase * 100 + group * 10 + slice;
    perThread[slice] = phase;
    __respec_slice_barrier(groups, group);
    for (int other = 0; other < kSlices; ++other) {
      wrong += shared[other] != phase * 100 + group * 10 + other;
      wrong += perThread[other] != phase;
    }
    __respec_slice_barrier(groups, group);
  }
  return wrong;
}

} // namespace

int main() {
  // Without an OpenMP team to count on (this test links no libomp), no
  // slices may wait for each other.
  CHECK(__respec_slice_team_size() >= 1);

  void *groups = __respec_slice_groups_begin(kGroups, kSlices, 100, 40);
  CHECK(groups != nullptr);
  char *shared0 = static_cast<char *>(__respec_slice_group_shared(groups, 0));
  char *shared1 = static_cast<char *>(__respec_slice_group_shared(groups, 1));
  char *private0 = static_cast<char *>(__respec_slice_group_private(groups, 0));
  char *private1 = static_cast<char *>(__respec_slice_group_private(groups, 1));
  // Each block's storage is its own, 64-byte aligned, and as large as asked.
  for (char *storage : {shared0, shared1, private0, private1})
    CHECK(reinterpret_cast<uintptr_t>(storage) % 64 == 0);
  CHECK(shared1 - shared0 >= 100);
  CHECK(private1 - private0 >= 40);
  CHECK(private0 >= shared1 + 100 || private1 + 40 <= shared0);

  std::vector<int> wrong(kGroups * kSlices, 0);
  std::vector<std::thread> team;
  for (int group = 0; group < kGroups; ++group)
    for (int slice = 0; slice < kSlices; ++slice)
      team.emplace_back([&, group, slice] {
        wrong[group * kSlices + slice] = runSlice(groups, group, slice);
      });
  for (std::thread &thread : team)
    thread.join();
  for (int count : wrong)
    CHECK(count == 0);

  // The caller's team (here no OpenMP team: one thread) cannot run 2 x 3
  // slices at once; generated code then runs each block whole.
  CHECK(__respec_slice_team_ready(groups) == 0);
  CHECK(__respec_slice_team_ready(__respec_slice_groups_begin(1, 1, 0, 0)) ==
        1);

  // A later launch from the same thread reuses and resets the storage.
  void *again = __respec_slice_groups_begin(1, 2, 8, 8);
  std::thread other([&] { __respec_slice_barrier(again, 0); });
  __respec_slice_barrier(again, 0);
  other.join();

  return finishTest("SliceGroupsTest");
}
