// Device-side operator new/delete (scalar and array), built
// on the device heap as CUDA's device runtime does: objects with
// constructors, a per-thread array freed in the same kernel, and blocks that
// allocate in one kernel and free in another.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

struct Node {
  int value;
  Node *next;
  __device__ Node(int v, Node *n) : value(v), next(n) {}
};

__global__ void buildLists(Node **heads, int *sums, int length) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node *head = nullptr;
  for (int k = 0; k < length; ++k)
    head = new Node(t + k, head);
  int *scratch = new int[length];
  int *spare = new int[4];
  int sum = 0;
  for (Node *n = head; n; n = n->next)
    sum += n->value;
  for (int k = 0; k < length; ++k)
    scratch[k] = k * t;
  for (int k = 0; k < length; ++k)
    sum += scratch[k];
  delete[] scratch;
  delete[] spare;
  sums[t] = sum;
  heads[t] = head;
}

__global__ void freeLists(Node **heads) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node *n = heads[t];
  while (n) {
    Node *next = n->next;
    delete n;
    n = next;
  }
}

int main() {
  const int threads = 256, length = 10;
  Node **heads;
  int *sums;
  cudaMalloc(&heads, threads * sizeof(Node *));
  cudaMalloc(&sums, threads * sizeof(int));
  buildLists<<<4, threads / 4>>>(heads, sums, length);
  freeLists<<<4, threads / 4>>>(heads);
  int host[threads];
  cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    int expect = 0;
    for (int k = 0; k < length; ++k)
      expect += (t + k) + k * t;
    bad += host[t] != expect;
  }
  printf("%s\n", bad || cudaGetLastError() != cudaSuccess ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
