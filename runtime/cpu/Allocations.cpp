//===- Allocations.cpp - Allocation table of the CPU device ---------------===//
//
// Large allocations are staggered: the C library returns big blocks at the
// same offset within a 4 KiB page (fresh mappings), so the arrays of a
// program all start at the same address modulo 4 KiB. x86 cores compare
// only the low 12 address bits when they decide whether a load may depend
// on an earlier store ("4K aliasing"): a kernel that stores out[i] and then
// loads in[j] a few elements later with the same low bits stalls until the
// store completes, and rows of power-of-two width make that the rule. A
// GPU-style 16x16 tile over three 4 KiB-row arrays ran 3x slower than with
// the arrays 256 bytes apart (bench/README.md, `hotspot`). Each large
// allocation therefore starts the next of 16 colours, multiples of
// cudaMalloc's 256-byte alignment, past a page boundary.
//
//===----------------------------------------------------------------------===//

#include "Allocations.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>

namespace respec {
namespace cpu {
namespace {

/// cudaMalloc guarantees at least 256-byte alignment.
constexpr size_t allocationAlignment = 256;

/// Allocations from this size on are staggered; below it the padding would
/// cost more than the arrays could lose to aliasing.
constexpr size_t staggeredMinimum = 64 * 1024;
constexpr size_t pageBytes = aliasingPeriod;
constexpr unsigned colours = pageBytes / allocationAlignment;

/// The offset of the next large allocation within its page.
size_t nextStagger() {
  static std::atomic<unsigned> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) % colours *
         allocationAlignment;
}

struct AllocationTable {
  std::mutex mutex;
  std::map<const char *, Allocation> byBase;
};

AllocationTable &table() {
  static AllocationTable *instance = new AllocationTable;
  return *instance;
}

bool isDeviceLike(AllocationKind kind) {
  return kind == AllocationKind::Device || kind == AllocationKind::Managed;
}

} // namespace

void *allocate(size_t size, AllocationKind kind, unsigned flags) {
  size_t rounded = (size + allocationAlignment - 1) / allocationAlignment *
                   allocationAlignment;
  if (rounded < size) // overflow
    return nullptr;
  bool staggered = rounded >= staggeredMinimum;
  size_t bytes = rounded ? rounded : allocationAlignment;
  // aligned_alloc wants a size that is a multiple of the alignment; a
  // staggered block gets a page more for its offset (at most 15 * 256).
  size_t pages = bytes / pageBytes + 2;
  if (staggered && pages > SIZE_MAX / pageBytes) // overflow
    return nullptr;
  void *storage = staggered ? std::aligned_alloc(pageBytes, pages * pageBytes)
                            : std::aligned_alloc(allocationAlignment, bytes);
  if (!storage)
    return nullptr;
  void *ptr = static_cast<char *>(storage) + (staggered ? nextStagger() : 0);
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.byBase[static_cast<const char *>(ptr)] = {ptr, size, kind, flags, storage};
  return ptr;
}

bool release(void *ptr, AllocationKind kind) {
  AllocationTable &t = table();
  void *storage = nullptr;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.byBase.find(static_cast<const char *>(ptr));
    if (it == t.byBase.end())
      return false;
    AllocationKind actual = it->second.kind;
    bool matches =
        actual == kind || (isDeviceLike(actual) && isDeviceLike(kind));
    if (!matches)
      return false;
    storage = it->second.storage;
    t.byBase.erase(it);
  }
  std::free(storage);
  return true;
}

bool registerRange(void *ptr, size_t size, unsigned flags,
                   AllocationKind kind) {
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto inserted = t.byBase.emplace(static_cast<const char *>(ptr),
                                   Allocation{ptr, size, kind, flags});
  return inserted.second;
}

bool unregisterRange(void *ptr) {
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.byBase.find(static_cast<const char *>(ptr));
  if (it == t.byBase.end() || it->second.kind != AllocationKind::RegisteredHost)
    return false;
  t.byBase.erase(it);
  return true;
}

bool findAllocation(const void *ptr, Allocation *found) {
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  const char *address = static_cast<const char *>(ptr);
  auto it = t.byBase.upper_bound(address);
  if (it == t.byBase.begin())
    return false;
  --it;
  const Allocation &candidate = it->second;
  size_t extent = candidate.size ? candidate.size : 1;
  if (address >= it->first + extent)
    return false;
  *found = candidate;
  return true;
}

} // namespace cpu
} // namespace respec
