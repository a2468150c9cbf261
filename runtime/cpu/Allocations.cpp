//===- Allocations.cpp - Allocation table of the CPU device ---------------===//

#include "Allocations.h"

#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>

namespace respec {
namespace cpu {
namespace {

/// cudaMalloc guarantees at least 256-byte alignment.
constexpr size_t allocationAlignment = 256;

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
  void *ptr = std::aligned_alloc(allocationAlignment,
                                 rounded ? rounded : allocationAlignment);
  if (!ptr)
    return nullptr;
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.byBase[static_cast<const char *>(ptr)] = {ptr, size, kind, flags};
  return ptr;
}

bool release(void *ptr, AllocationKind kind) {
  AllocationTable &t = table();
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
    t.byBase.erase(it);
  }
  std::free(ptr);
  return true;
}

bool registerRange(void *ptr, size_t size, unsigned flags) {
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto inserted = t.byBase.emplace(
      static_cast<const char *>(ptr),
      Allocation{ptr, size, AllocationKind::RegisteredHost, flags});
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
