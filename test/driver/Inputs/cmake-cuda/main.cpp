#include <cstdio>
#include <cuda_runtime.h>
void runTwice(int *host, int n);
int main() {
  int v[300];
  for (int i = 0; i < 300; ++i)
    v[i] = i;
  runTwice(v, 300);
  long s = 0;
  for (int x : v)
    s += x;
  int count = 0;
  cudaGetDeviceCount(&count);
  std::printf("sum %ld devices %d\n", s, count);
  return s == 89700 ? 0 : 1;
}
