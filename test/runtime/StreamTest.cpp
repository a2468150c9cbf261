//===- StreamTest.cpp - Stream ordering, callbacks and event timing -------===//

#include "RuntimeTest.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace {

std::mutex orderMutex;
std::vector<int> order;

void appendAfterSleep(void *value) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::lock_guard<std::mutex> lock(orderMutex);
  order.push_back(static_cast<int>(reinterpret_cast<intptr_t>(value)));
}

void CUDART_CB callback(cudaStream_t, cudaError_t status, void *value) {
  if (status == cudaSuccess)
    appendAfterSleep(value);
}

void testOrderingAndQuery() {
  cudaStream_t a, b;
  CHECK_OK(cudaStreamCreate(&a));
  CHECK_OK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  CHECK_OK(
      cudaLaunchHostFunc(a, appendAfterSleep, reinterpret_cast<void *>(1)));
  CHECK_OK(cudaStreamAddCallback(b, callback, reinterpret_cast<void *>(2), 0));
  CHECK_EQ_ERR(cudaStreamQuery(a), cudaErrorNotReady);
  CHECK_OK(
      cudaLaunchHostFunc(a, appendAfterSleep, reinterpret_cast<void *>(3)));
  // Asynchronous: nothing has finished yet when the calls return.
  {
    std::lock_guard<std::mutex> lock(orderMutex);
    CHECK(order.size() < 3);
  }
  CHECK_OK(cudaStreamSynchronize(a));
  {
    std::lock_guard<std::mutex> lock(orderMutex);
    CHECK(order.size() >= 2 && order[0] == 1);
  }
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(order.size() == 3);
  CHECK_OK(cudaStreamQuery(a));
  CHECK_EQ_ERR(cudaStreamAddCallback(a, callback, nullptr, 1),
               cudaErrorInvalidValue);
  CHECK_OK(cudaStreamDestroy(a));
  CHECK_OK(cudaStreamDestroy(b));
  CHECK_EQ_ERR(cudaStreamSynchronize(a), cudaErrorInvalidResourceHandle);
  CHECK_OK(cudaStreamSynchronize(cudaStreamPerThread));
  CHECK_OK(cudaStreamSynchronize(cudaStreamLegacy));
  cudaGetLastError();
}

void testAsyncCopyOrdering() {
  cudaStream_t s;
  CHECK_OK(cudaStreamCreate(&s));
  int *dev = nullptr, *pinned = nullptr;
  CHECK_OK(cudaMalloc(&dev, 1 << 20));
  CHECK_OK(cudaMallocHost(&pinned, 1 << 20));
  for (int i = 0; i < (1 << 18); ++i)
    pinned[i] = i;
  CHECK_OK(cudaMemsetAsync(dev, 0, 1 << 20, s));
  CHECK_OK(cudaMemcpyAsync(dev, pinned, 1 << 20, cudaMemcpyHostToDevice, s));
  CHECK_OK(cudaMemsetAsync(pinned, 0, 1 << 20, s));
  CHECK_OK(cudaMemcpyAsync(pinned, dev, 1 << 20, cudaMemcpyDeviceToHost, s));
  CHECK_OK(cudaStreamSynchronize(s));
  CHECK(pinned[12345] == 12345);
  CHECK_OK(cudaFree(dev));
  CHECK_OK(cudaFreeHost(pinned));
  CHECK_OK(cudaStreamDestroy(s));
}

void testEvents() {
  cudaEvent_t start, stop, untimed;
  CHECK_OK(cudaEventCreate(&start));
  CHECK_OK(cudaEventCreate(&stop));
  CHECK_OK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  float ms = 0;
  CHECK_EQ_ERR(cudaEventElapsedTime(&ms, start, stop),
               cudaErrorInvalidResourceHandle); // never recorded
  CHECK_OK(cudaEventQuery(start));              // never recorded: complete
  cudaStream_t s;
  CHECK_OK(cudaStreamCreate(&s));
  CHECK_OK(cudaEventRecord(start, s));
  CHECK_OK(cudaLaunchHostFunc(s, appendAfterSleep, nullptr));
  CHECK_OK(cudaLaunchHostFunc(s, appendAfterSleep, nullptr));
  CHECK_OK(cudaEventRecord(stop, s));
  CHECK_OK(cudaEventRecord(untimed, s));
  CHECK_EQ_ERR(cudaEventQuery(stop), cudaErrorNotReady);
  CHECK_OK(cudaStreamWaitEvent(nullptr, stop, 0));
  CHECK_OK(cudaEventSynchronize(stop));
  CHECK_OK(cudaEventQuery(stop));
  CHECK_OK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 35.0f && ms < 2000.0f);
  CHECK_EQ_ERR(cudaEventElapsedTime(&ms, start, untimed),
               cudaErrorInvalidResourceHandle);
  CHECK_OK(cudaEventDestroy(start));
  CHECK_OK(cudaEventDestroy(stop));
  CHECK_OK(cudaEventDestroy(untimed));
  CHECK_EQ_ERR(cudaEventDestroy(start), cudaErrorInvalidResourceHandle);
  CHECK_OK(cudaStreamDestroy(s));
  cudaGetLastError();
}

void testLastErrorIsPerThread() {
  cudaGetLastError();
  CHECK_EQ_ERR(cudaSetDevice(3), cudaErrorInvalidDevice);
  std::thread other([] { CHECK_OK(cudaGetLastError()); });
  other.join();
  CHECK_EQ_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
  CHECK_OK(cudaGetLastError());
}

} // namespace

int *pinnedForHostFunc = nullptr;

void storeSevenAfterSleep(void *) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  pinnedForHostFunc[0] = 7;
}

// Work submitted while the queue is idle may run on the calling thread;
// work submitted behind pending items must still run after them.
void testInlineWorkKeepsOrder() {
  CHECK_OK(cudaDeviceSynchronize());
  cudaStream_t s;
  CHECK_OK(cudaStreamCreate(&s));
  int *dev = nullptr;
  CHECK_OK(cudaMalloc(&dev, 4 * sizeof(int)));
  CHECK_OK(cudaMallocHost(&pinnedForHostFunc, 4 * sizeof(int)));
  pinnedForHostFunc[0] = 1;
  // Idle queue: the copy and the record are complete when they return or
  // soon after; either way the stream's order holds.
  CHECK_OK(cudaMemcpyAsync(dev, pinnedForHostFunc, sizeof(int),
                           cudaMemcpyHostToDevice, s));
  cudaEvent_t idleRecord;
  CHECK_OK(cudaEventCreate(&idleRecord));
  CHECK_OK(cudaEventRecord(idleRecord, s));
  CHECK_OK(cudaEventSynchronize(idleRecord));
  CHECK_OK(cudaEventQuery(idleRecord));
  // Busy queue: the copy behind the sleeping host function sees its store,
  // and the second copy (back into the pinned buffer) runs after the first.
  CHECK_OK(cudaLaunchHostFunc(s, storeSevenAfterSleep, nullptr));
  CHECK_OK(cudaMemcpyAsync(dev + 1, pinnedForHostFunc, sizeof(int),
                           cudaMemcpyHostToDevice, s));
  CHECK_OK(cudaMemcpyAsync(pinnedForHostFunc + 2, dev, 2 * sizeof(int),
                           cudaMemcpyDeviceToHost, s));
  CHECK_OK(cudaStreamSynchronize(s));
  CHECK(pinnedForHostFunc[2] == 1 && pinnedForHostFunc[3] == 7);
  CHECK_OK(cudaEventDestroy(idleRecord));
  CHECK_OK(cudaFree(dev));
  CHECK_OK(cudaFreeHost(pinnedForHostFunc));
  CHECK_OK(cudaStreamDestroy(s));
}

int main() {
  testOrderingAndQuery();
  testAsyncCopyOrdering();
  testEvents();
  testLastErrorIsPerThread();
  testInlineWorkKeepsOrder();
  return finishTest("StreamTest");
}
