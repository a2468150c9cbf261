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

/// When the queue is idle (nothing pending, nothing running), reserves the
/// next ticket for work the calling thread runs itself, sets `*ticket` and
/// returns true; the worker starts nothing until finishInlineWork(ticket).
/// Returns false (and reserves nothing) when the queue is busy, on the worker
/// thread, or when RESPEC_ASYNC_LAUNCH=1 asks for every item on the worker.
///
/// Why: handing a launch to the worker and waiting for it costs two thread
/// wake-ups (microseconds each), more than many small kernels run. Running
/// it on the caller when nothing is ahead of it keeps CUDA's order (FIFO,
/// every earlier item done) and only gives up host/device overlap, which the
/// CPU cannot use anyway: a kernel's OpenMP team already fills the cores.
bool tryReserveInlineWork(Ticket *ticket);
/// Marks the ticket reserved by tryReserveInlineWork as completed.
void finishInlineWork(Ticket ticket);

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
