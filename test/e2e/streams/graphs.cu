// CUDA graphs from stream capture: copies, kernels, a memset and a host
// function captured (and not run) between cudaStreamBeginCapture and
// cudaStreamEndCapture, then launched several times, each launch reading the
// host data of its time; a fork/join capture over two streams joined by
// events; cudaGraphExecUpdate; a graph launched inside another capture;
// the parameters of captured kernel nodes (cudaGraphKernelNodeGetParams),
// changed in the executable graph (cudaGraphExecKernelNodeSetParams);
// and the errors of capture misuse. Built with the toolkit's headers and
// with respec's own, and run with asynchronous launches.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// CHECK: replay PASSED
// CHECK: fork/join PASSED
// CHECK: update PASSED
// CHECK: nested PASSED
// CHECK: errors PASSED
// CHECK: captured parameters PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(status_));                                     \
      return false;                                                            \
    }                                                                          \
  } while (0)

#define EXPECT(condition, ...)                                                 \
  do {                                                                         \
    if (!(condition)) {                                                        \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
      return false;                                                            \
    }                                                                          \
  } while (0)

constexpr int n = 5000;

__global__ void addScalar(int *data, int count, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    data[i] += value;
}

__global__ void scale(int *data, int count, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    data[i] *= factor;
}

static void CUDART_CB countCall(void *counter) { ++*static_cast<int *>(counter); }

static cudaStreamCaptureStatus captureStatus(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess)
    return cudaStreamCaptureStatusInvalidated;
  return status;
}

static bool checkReplay() {
  int *device, *input, *output;
  CHECK(cudaMalloc(&device, n * sizeof(int)));
  CHECK(cudaMallocHost(&input, n * sizeof(int)));
  CHECK(cudaMallocHost(&output, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    output[i] = -1;
  int calls = 0;
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int blocks = (n + 255) / 256;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  EXPECT(captureStatus(stream) == cudaStreamCaptureStatusActive,
         "replay: not capturing after cudaStreamBeginCapture");
  CHECK(cudaMemcpyAsync(device, input, n * sizeof(int), cudaMemcpyHostToDevice,
                        stream));
  addScalar<<<blocks, 256, 0, stream>>>(device, n, 1);
  scale<<<blocks, 256, 0, stream>>>(device, n, 3);
  // The first 10 elements are cleared after the kernels.
  CHECK(cudaMemsetAsync(device, 0, 10 * sizeof(int), stream));
  CHECK(cudaMemcpyAsync(output, device, n * sizeof(int),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaLaunchHostFunc(stream, countCall, &calls));
  cudaGraph_t graph;
  CHECK(cudaStreamEndCapture(stream, &graph));
  EXPECT(captureStatus(stream) == cudaStreamCaptureStatusNone,
         "replay: still capturing after cudaStreamEndCapture");
  EXPECT(calls == 0 && output[0] == -1 && output[n - 1] == -1,
         "replay: captured work ran during the capture");
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT(nodes == 6, "replay: %zu nodes, expected 6", nodes);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph)); // the executable graph keeps its work
  for (int launch = 0; launch < 3; ++launch) {
    for (int i = 0; i < n; ++i)
      input[i] = i * (launch + 1);
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < n; ++i) {
      int want = i < 10 ? 0 : (i * (launch + 1) + 1) * 3;
      EXPECT(output[i] == want, "replay: launch %d element %d: %d, want %d",
             launch, i, output[i], want);
    }
    EXPECT(calls == launch + 1, "replay: host function ran %d times after %d "
           "launches", calls, launch + 1);
  }
  // Launches queue behind each other like any stream work.
  for (int i = 0; i < n; ++i)
    input[i] = 7;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  for (int launch = 0; launch < 4; ++launch)
    CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0 && calls == 7 && output[n - 1] == 24,
         "replay: after 4 more launches: %g ms, %d calls, last %d", ms, calls,
         output[n - 1]);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(device));
  CHECK(cudaFreeHost(input));
  CHECK(cudaFreeHost(output));
  return true;
}

/// Origin stream a, forked into b by an event, joined back by another.
static cudaGraph_t captureForkJoin(cudaStream_t a, cudaStream_t b, int *left,
                                   int *right, int value) {
  cudaEvent_t fork, join;
  cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
  cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(left, 0, n * sizeof(int), a);
  cudaEventRecord(fork, a);
  cudaStreamWaitEvent(b, fork, 0);
  addScalar<<<(n + 127) / 128, 128, 0, b>>>(right, n, value);
  addScalar<<<(n + 127) / 128, 128, 0, a>>>(left, n, 2 * value);
  cudaEventRecord(join, b);
  cudaStreamWaitEvent(a, join, 0);
  scale<<<(n + 127) / 128, 128, 0, a>>>(right, n, 2);
  cudaGraph_t graph = nullptr;
  if (cudaStreamEndCapture(a, &graph) != cudaSuccess)
    graph = nullptr;
  cudaEventDestroy(fork);
  cudaEventDestroy(join);
  return graph;
}

static bool checkForkJoin(cudaGraphExec_t *exec, int **left, int **right) {
  cudaStream_t a, b;
  CHECK(cudaStreamCreate(&a));
  CHECK(cudaStreamCreate(&b));
  CHECK(cudaMalloc(left, n * sizeof(int)));
  CHECK(cudaMalloc(right, n * sizeof(int)));
  CHECK(cudaMemset(*right, 0, n * sizeof(int)));
  cudaGraph_t graph = captureForkJoin(a, b, *left, *right, 5);
  EXPECT(graph, "fork/join: the capture failed");
  EXPECT(captureStatus(b) == cudaStreamCaptureStatusNone,
         "fork/join: the forked stream still captures");
  CHECK(cudaGraphInstantiate(exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  for (int launch = 1; launch <= 2; ++launch) {
    CHECK(cudaGraphLaunch(*exec, a));
    CHECK(cudaStreamSynchronize(a));
    int hostLeft[n], hostRight[n];
    CHECK(cudaMemcpy(hostLeft, *left, sizeof hostLeft, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hostRight, *right, sizeof hostRight,
                     cudaMemcpyDeviceToHost));
    // right accumulates: r = (r + 5) * 2 per launch.
    int wantRight = launch == 1 ? 10 : 30;
    for (int i = 0; i < n; ++i)
      EXPECT(hostLeft[i] == 10 && hostRight[i] == wantRight,
             "fork/join: launch %d element %d: %d %d", launch, i, hostLeft[i],
             hostRight[i]);
  }
  CHECK(cudaStreamDestroy(a));
  CHECK(cudaStreamDestroy(b));
  return true;
}

static bool checkUpdate(cudaGraphExec_t exec, int *left, int *right) {
  cudaStream_t a, b;
  CHECK(cudaStreamCreate(&a));
  CHECK(cudaStreamCreate(&b));
  // Same shape, another value: the executable graph takes the new one.
  cudaGraph_t graph = captureForkJoin(a, b, left, right, 1);
  EXPECT(graph, "update: the capture failed");
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, graph, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess, "update: result %d",
         (int)info.result);
  CHECK(cudaMemset(right, 0, n * sizeof(int)));
  CHECK(cudaGraphLaunch(exec, a));
  CHECK(cudaStreamSynchronize(a));
  int hostLeft[n], hostRight[n];
  CHECK(cudaMemcpy(hostLeft, left, sizeof hostLeft, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostRight, right, sizeof hostRight, cudaMemcpyDeviceToHost));
  EXPECT(hostLeft[0] == 2 && hostRight[n - 1] == 2,
         "update: %d %d after the update", hostLeft[0], hostRight[n - 1]);
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(a));
  CHECK(cudaStreamDestroy(b));
  return true;
}

/// A graph launched inside a capture becomes part of the new graph.
static bool checkNested(cudaGraphExec_t inner, int *left, int *right) {
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemset(right, 0, n * sizeof(int)));
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaGraphLaunch(inner, stream));
  addScalar<<<(n + 255) / 256, 256, 0, stream>>>(left, n, 100);
  cudaGraph_t outer;
  CHECK(cudaStreamEndCapture(stream, &outer));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiateWithFlags(&exec, outer, 0));
  int hostLeft[n], hostRight[n];
  CHECK(cudaMemcpy(hostLeft, left, sizeof hostLeft, cudaMemcpyDeviceToHost));
  int before = hostLeft[0];
  CHECK(cudaGraphUpload(exec, stream));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(hostLeft, left, sizeof hostLeft, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostRight, right, sizeof hostRight, cudaMemcpyDeviceToHost));
  // The inner graph (updated to value 1) clears left and adds 2, then 100.
  EXPECT(before == 2 && hostLeft[7] == 102 && hostRight[7] == 2,
         "nested: left %d -> %d, right %d", before, hostLeft[7], hostRight[7]);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(outer));
  CHECK(cudaStreamDestroy(stream));
  return true;
}

static bool checkErrors() {
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(1);
  EXPECT(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) ==
             cudaErrorStreamCaptureUnsupported,
         "errors: the legacy stream was captured");
  EXPECT(cudaStreamEndCapture(stream, &graph) == cudaErrorIllegalState,
         "errors: a capture ended that never began");
  // Synchronizing with a capturing stream fails and invalidates the capture.
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  EXPECT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) ==
             cudaErrorIllegalState,
         "errors: a capture began twice");
  void *memory = nullptr;
  EXPECT(cudaMallocAsync(&memory, 256, stream) ==
             cudaErrorStreamCaptureUnsupported,
         "errors: an allocation was captured");
  EXPECT(cudaStreamSynchronize(stream) == cudaErrorStreamCaptureUnsupported,
         "errors: a capturing stream was synchronized");
  EXPECT(captureStatus(stream) == cudaStreamCaptureStatusInvalidated,
         "errors: the capture was not invalidated");
  EXPECT(cudaStreamEndCapture(stream, &graph) ==
                 cudaErrorStreamCaptureInvalidated &&
             graph == nullptr,
         "errors: an invalidated capture gave a graph");
  EXPECT(captureStatus(stream) == cudaStreamCaptureStatusNone,
         "errors: still capturing after the failed end");
  cudaGraphExec_t exec = reinterpret_cast<cudaGraphExec_t>(16);
  EXPECT(cudaGraphLaunch(exec, stream) == cudaErrorInvalidValue,
         "errors: a bogus executable graph was launched");
  // An empty graph instantiates and launches.
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  EXPECT(cudaGraphDestroy(graph) == cudaErrorInvalidValue,
         "errors: a graph was destroyed twice");
  cudaGetLastError();
  CHECK(cudaStreamDestroy(stream));
  return true;
}

// A captured launch's node reports the launch (kernel, geometry, argument
// values); the executable graph takes new arguments for it.
static bool checkCapturedKernelParameters() {
  int *device;
  CHECK(cudaMalloc(&device, n * sizeof(int)));
  CHECK(cudaMemset(device, 0, n * sizeof(int)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  addScalar<<<(n + 127) / 128, 128, 0, stream>>>(device, n, 5);
  cudaGraph_t graph;
  CHECK(cudaStreamEndCapture(stream, &graph));
  // A buffer larger than the graph: the rest is null, the count the nodes'.
  cudaGraphNode_t buffer[4];
  size_t count = 4;
  CHECK(cudaGraphGetNodes(graph, buffer, &count));
  EXPECT(count == 1 && buffer[0] && !buffer[1] && !buffer[3],
         "captured parameters: cudaGraphGetNodes gave %zu nodes", count);
  cudaGraphNode_t node = buffer[0];
  cudaKernelNodeParams params = {};
  CHECK(cudaGraphKernelNodeGetParams(node, &params));
  EXPECT(params.func == (void *)addScalar && params.gridDim.x == (n + 127) / 128 &&
             params.blockDim.x == 128 && params.sharedMemBytes == 0 &&
             *(int **)params.kernelParams[0] == device &&
             *(int *)params.kernelParams[1] == n &&
             *(int *)params.kernelParams[2] == 5,
         "captured parameters: the node does not report the launch");
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  int value = 9;
  void *arguments[] = {&device, (void *)&n, &value};
  params.kernelParams = arguments;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &params));
  CHECK(cudaGraphLaunch(exec, stream));
  int last = 0;
  CHECK(cudaMemcpyAsync(&last, device + n - 1, sizeof(int),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  EXPECT(last == 14, "captured parameters: %d after both launches, want 14",
         last);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(device));
  return true;
}

int main() {
  printf("replay %s\n", checkReplay() ? "PASSED" : "FAILED");
  cudaGraphExec_t forkJoin = nullptr;
  int *left = nullptr, *right = nullptr;
  bool ok = checkForkJoin(&forkJoin, &left, &right);
  printf("fork/join %s\n", ok ? "PASSED" : "FAILED");
  printf("update %s\n", ok && checkUpdate(forkJoin, left, right) ? "PASSED"
                                                                 : "FAILED");
  printf("nested %s\n", ok && checkNested(forkJoin, left, right) ? "PASSED"
                                                                 : "FAILED");
  printf("errors %s\n", checkErrors() ? "PASSED" : "FAILED");
  printf("captured parameters %s\n",
         checkCapturedKernelParameters() ? "PASSED" : "FAILED");
  return 0;
}
