// CUDA graphs built node by node: memset (4-byte elements), kernel, 1-D
// copy, host, empty and child-graph nodes with dependencies; a dependency
// added afterwards that reverses the order the nodes were added in; a
// cycle refused at instantiation; node queries; and the parameters of an
// instantiated graph's kernel, memset and host nodes changed between
// launches. Built with the toolkit's headers and with respec's own, and run
// with asynchronous launches.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// CHECK: nodes PASSED
// CHECK: order PASSED
// CHECK: set params PASSED

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

constexpr int n = 3000;

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

static int *a, *b;
static int addValue = 5, count = n, factor = 2;
static void *addArgs[] = {&a, &count, &addValue};
static void *scaleArgs[] = {&b, &count, &factor};

static cudaKernelNodeParams kernelParams(void *func, void **args) {
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3((n + 255) / 256);
  p.blockDim = dim3(256);
  p.kernelParams = args;
  return p;
}

static cudaMemsetParams memsetParams(int *dst, unsigned value) {
  cudaMemsetParams p = {};
  p.dst = dst;
  p.value = value;
  p.elementSize = sizeof(int);
  p.width = n;
  p.height = 1;
  return p;
}

static bool expectAll(const int *device, int want, const char *what) {
  static int host[n];
  CHECK(cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    EXPECT(host[i] == want, "%s: element %d is %d, want %d", what, i, host[i],
           want);
  return true;
}

static cudaGraphExec_t exec;
static cudaGraphNode_t kernelNode, memsetNode, hostNode;
static int calls = 0, otherCalls = 0;

static bool checkNodes() {
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  cudaGraph_t graph, child;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t scaleNode, copyNode, emptyNode, childNode;
  cudaKernelNodeParams scaleP = kernelParams((void *)scale, scaleArgs);
  CHECK(cudaGraphAddKernelNode(&scaleNode, child, nullptr, 0, &scaleP));
  // a = 7; a += 5; b = a; then the child (b *= 2) and the host node.
  cudaMemsetParams setP = memsetParams(a, 7);
  CHECK(cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &setP));
  cudaKernelNodeParams addP = kernelParams((void *)addScalar, addArgs);
  CHECK(cudaGraphAddKernelNode(&kernelNode, graph, &memsetNode, 1, &addP));
  CHECK(cudaGraphAddMemcpyNode1D(&copyNode, graph, &kernelNode, 1, b, a,
                                 n * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaGraphAddEmptyNode(&emptyNode, graph, &copyNode, 1));
  CHECK(cudaGraphAddChildGraphNode(&childNode, graph, &emptyNode, 1, child));
  cudaHostNodeParams hostP = {countCall, &calls};
  CHECK(cudaGraphAddHostNode(&hostNode, graph, &childNode, 1, &hostP));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  EXPECT(count == 6, "nodes: %zu nodes", count);
  cudaGraphNode_t nodes[6];
  CHECK(cudaGraphGetNodes(graph, nodes, &count));
  cudaGraphNodeType want[6] = {cudaGraphNodeTypeMemset, cudaGraphNodeTypeKernel,
                               cudaGraphNodeTypeMemcpy, cudaGraphNodeTypeEmpty,
                               cudaGraphNodeTypeGraph,  cudaGraphNodeTypeHost};
  for (int i = 0; i < 6; ++i) {
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(nodes[i], &type));
    EXPECT(type == want[i], "nodes: node %d has type %d, want %d", i,
           (int)type, (int)want[i]);
  }
  cudaKernelNodeParams got;
  CHECK(cudaGraphKernelNodeGetParams(kernelNode, &got));
  EXPECT(got.func == (void *)addScalar && got.gridDim.x == addP.gridDim.x &&
             got.kernelParams == addArgs,
         "nodes: kernel node parameters");
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(child)); // the child node keeps its operations
  for (int launch = 1; launch <= 2; ++launch) {
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    if (!expectAll(b, 24, "nodes"))
      return false;
    EXPECT(calls == launch, "nodes: host node ran %d times", calls);
  }
  CHECK(cudaGraphDestroy(graph));
  return true;
}

/// Nodes added in one order, with a dependency that reverses it.
static bool checkOrder() {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t scaleA, resetA;
  int three = 3;
  void *args[] = {&a, &count, &three};
  cudaKernelNodeParams scaleP = kernelParams((void *)scale, args);
  CHECK(cudaGraphAddKernelNode(&scaleA, graph, nullptr, 0, &scaleP));
  cudaMemsetParams setP = memsetParams(a, 1);
  CHECK(cudaGraphAddMemsetNode(&resetA, graph, nullptr, 0, &setP));
  CHECK(cudaGraphAddDependencies(graph, &resetA, &scaleA, nullptr, 1));
  cudaGraphExec_t ordered;
  CHECK(cudaGraphInstantiate(&ordered, graph, 0));
  CHECK(cudaGraphLaunch(ordered, 0));
  CHECK(cudaStreamSynchronize(0));
  if (!expectAll(a, 3, "order"))
    return false;
  CHECK(cudaGraphExecDestroy(ordered));
  // A cycle cannot be ordered.
  CHECK(cudaGraphAddDependencies(graph, &scaleA, &resetA, nullptr, 1));
  EXPECT(cudaGraphInstantiate(&ordered, graph, 0) == cudaErrorInvalidValue,
         "order: a cyclic graph was instantiated");
  cudaGetLastError();
  CHECK(cudaGraphDestroy(graph));
  return true;
}

static bool checkSetParams() {
  int nine = 9;
  void *args[] = {&a, &count, &nine};
  cudaKernelNodeParams addP = kernelParams((void *)addScalar, args);
  CHECK(cudaGraphExecKernelNodeSetParams(exec, kernelNode, &addP));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  if (!expectAll(b, 32, "set params (kernel)"))
    return false;
  cudaMemsetParams setP = memsetParams(a, 1);
  CHECK(cudaGraphExecMemsetNodeSetParams(exec, memsetNode, &setP));
  cudaHostNodeParams hostP = {countCall, &otherCalls};
  CHECK(cudaGraphExecHostNodeSetParams(exec, hostNode, &hostP));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  if (!expectAll(b, 20, "set params (memset)"))
    return false;
  EXPECT(calls == 3 && otherCalls == 1, "set params: host calls %d and %d",
         calls, otherCalls);
  // A node of another type is refused.
  EXPECT(cudaGraphExecKernelNodeSetParams(exec, memsetNode, &addP) ==
             cudaErrorInvalidValue,
         "set params: a memset node took kernel parameters");
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return true;
}

int main() {
  bool ok = checkNodes();
  printf("nodes %s\n", ok ? "PASSED" : "FAILED");
  printf("order %s\n", ok && checkOrder() ? "PASSED" : "FAILED");
  printf("set params %s\n", ok && checkSetParams() ? "PASSED" : "FAILED");
  return 0;
}
