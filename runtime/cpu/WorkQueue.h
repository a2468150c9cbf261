//===- WorkQueue.h - The device's asynchronous execution engine -----------===//
//
// All asynchronous work (kernel launches, copies, memsets, event records,
// host callbacks) of every stream runs on one worker thread in the order it
// was submitted. One FIFO is stricter than CUDA requires (streams may overlap
// on a GPU) but it satisfies every ordering rule CUDA guarantees: in order
// within a stream, the legacy default stream waiting for and blocking all
// blocking streams, and event waits. It also matches the launch contract of
// abi.h: a kernel's launch function fills all cores with its own OpenMP team,
// so running two grids at once would only oversubscribe the cores.
//
// Work items get increasing tickets; waiting for a stream or event means
// waiting until the worker has completed the ticket of its last item.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CPU_WORKQUEUE_H
#define RESPEC_RUNTIME_CPU_WORKQUEUE_H

#include <cstdint>
#include <functional>

namespace respec {
namespace cpu {

using Ticket = uint64_t;

/// Queues `work` and returns its ticket.
Ticket submitWork(std::function<void()> work);

/// Blocks until the work of `ticket` and everything before it has run.
void waitForTicket(Ticket ticket);

/// True when the work of `ticket` has run.
bool isTicketDone(Ticket ticket);

/// Blocks until all submitted work has run.
void waitForAllWork();

/// True when called from the worker thread (host callbacks run there).
bool onWorkerThread();

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_WORKQUEUE_H
