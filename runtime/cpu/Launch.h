//===- Launch.h - Kernel launches of the CPU device -------------*- C++ -*-===//
//
// What the rest of the CPU runtime needs to know about the launches running
// now.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CPU_LAUNCH_H
#define RESPEC_RUNTIME_CPU_LAUNCH_H

namespace respec {
namespace cpu {

/// True while a kernel that synchronizes its grid (cooperative groups'
/// this_grid()) runs in an ordinary launch, where grid.sync() traps: the
/// trap's message then says what the launch lacks.
bool gridSyncOutsideCooperativeLaunch();

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_LAUNCH_H
