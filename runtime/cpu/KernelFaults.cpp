//===- KernelFaults.cpp - Invalid memory accesses of kernels --------------===//
//
// The handler runs on the faulting thread, which may be any OpenMP thread
// of the grid, so the running kernel is process-wide state. It writes with
// write(2); demangling may allocate, which is acceptable for a process about
// to stop (a fault inside the allocator itself would lose the message).
//
//===----------------------------------------------------------------------===//

#include "KernelFaults.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cxxabi.h>
#include <mutex>
#include <unistd.h>

namespace {

std::atomic<int> runningKernels{0};
std::atomic<const char *> lastKernel{nullptr};
/// 0 until a fault is reported, 1 while its message is written, 2 after.
std::atomic<int> faultReport{0};
struct sigaction previousSegv, previousBus;

void writeText(const char *text) {
  size_t length = std::strlen(text);
  while (length) {
    ssize_t written = ::write(STDERR_FILENO, text, length);
    if (written <= 0)
      return;
    text += written;
    length -= size_t(written);
  }
}

void reportFault(int signal, siginfo_t *info, void *context) {
  struct sigaction &previous = signal == SIGBUS ? previousBus : previousSegv;
  bool inKernel = runningKernels.load(std::memory_order_acquire) > 0;
  int none = 0;
  if (inKernel && !faultReport.compare_exchange_strong(none, 1)) {
    // Another thread of the grid faulted at the same time: one message
    // per process, and this thread's fault must not end the process before
    // that message is out.
    const struct timespec pause = {0, 1000000};
    while (faultReport.load(std::memory_order_acquire) != 2)
      nanosleep(&pause, nullptr);
  } else if (inKernel) {
    std::fflush(stdout);
    const char *mangled = lastKernel.load(std::memory_order_acquire);
    int status = -1;
    char *demangled =
        mangled ? abi::__cxa_demangle(mangled, nullptr, nullptr, &status)
                : nullptr;
    char address[32];
    std::snprintf(address, sizeof(address), "%p",
                  info ? info->si_addr : nullptr);
    writeText("respec: kernel '");
    writeText(demangled ? demangled : mangled ? mangled : "?");
    writeText("' accessed memory it may not (address ");
    writeText(address);
    writeText("): an illegal memory access was encountered "
              "(cudaErrorIllegalAddress on a GPU); the program stops\n");
    writeText("respec: note: indices past the end of an allocation and "
              "pointers to freed memory are the usual causes\n");
    faultReport.store(2, std::memory_order_release);
  }
  // Hand the fault to whoever handled it before (by default the process
  // ends with the signal); the faulting access runs again and faults again.
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction) {
      previous.sa_sigaction(signal, info, context);
      return;
    }
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
             previous.sa_handler) {
    previous.sa_handler(signal);
    return;
  }
  ::signal(signal, SIG_DFL);
}

void installHandlers() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_sigaction = reportFault;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previousSegv);
  sigaction(SIGBUS, &action, &previousBus);
}

} // namespace

namespace respec {
namespace cpu {

KernelFaultScope::KernelFaultScope(const char *mangledName) {
  static std::once_flag installed;
  std::call_once(installed, installHandlers);
  lastKernel.store(mangledName, std::memory_order_release);
  runningKernels.fetch_add(1, std::memory_order_acq_rel);
}

KernelFaultScope::~KernelFaultScope() {
  runningKernels.fetch_sub(1, std::memory_order_acq_rel);
}

} // namespace cpu
} // namespace respec
