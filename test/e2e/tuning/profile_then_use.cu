// Timing-driven selection on the CPU. A --tune=profile build runs each of
// the kernel's coarsened versions on successive launches (every launch runs
// once, so results stay right) and appends the timings to the database; a
// --tune=use build keeps the winner per launch geometry; --tune=auto lets
// the geometry heuristic choose. All three compute the same results.
//
// RUN: %respec -O2 --tune=profile --tune-candidates="block=1,thread=1;block=2;block=4,thread=2" %s -o %t.prof
// RUN: rm -f %t.db
// RUN: env RESPEC_TUNING_DB=%t.db %t.prof | FileCheck %s
// RUN: FileCheck %s --check-prefix=DB < %t.db
// RUN: %respec -O2 --tune=use=%t.db %s -o %t.tuned && %t.tuned | FileCheck %s
// RUN: %respec -O2 --tune=auto %s -o %t.auto && %t.auto | FileCheck %s
// RUN: %respec -O2 --tune=use=%S/Inputs/two-geometries.db %s -o %t.table && %t.table | FileCheck %s
// RUN: not %respec --tune=use=%t.missing %s -o %t.x 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %respec --tune=use=%S/Inputs/malformed.db %s -o %t.x 2>&1 | FileCheck %s --check-prefix=MALFORMED

// CHECK: PASSED

// Every (geometry, version) pair was timed: 2 geometries x 3 versions.
// DB-DAG: cpu:{{.*}}	_Z6smoothPKfPfi	40,1,1,128,1,1	block=1,thread=1	{{[1-9][0-9]*}}	{{[0-9]+}}
// DB-DAG: cpu:{{.*}}	_Z6smoothPKfPfi	40,1,1,128,1,1	block=2,thread=1	{{[1-9][0-9]*}}	{{[0-9]+}}
// DB-DAG: cpu:{{.*}}	_Z6smoothPKfPfi	40,1,1,128,1,1	block=4,thread=2	{{[1-9][0-9]*}}	{{[0-9]+}}
// DB-DAG: cpu:{{.*}}	_Z6smoothPKfPfi	157,1,1,64,1,1	block=1,thread=1
// DB-DAG: cpu:{{.*}}	_Z6smoothPKfPfi	157,1,1,64,1,1	block=2,thread=1
// DB-DAG: cpu:{{.*}}	_Z6smoothPKfPfi	157,1,1,64,1,1	block=4,thread=2

// MISSING: respec: error: cannot read the tuning database '{{.*}}.missing'
// MALFORMED: malformed.db:3: error: malformed tuning record

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void smooth(const float *in, float *out, int n) {
  __shared__ float tile[130];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0)
    tile[0] = i > 0 && i - 1 < n ? in[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1)
    tile[blockDim.x + 1] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = 0.25f * tile[threadIdx.x] + 0.5f * tile[threadIdx.x + 1] +
             0.25f * tile[threadIdx.x + 2];
}

static int run(int n, int block, int repeats) {
  std::vector<float> host(n), result(n);
  for (int i = 0; i < n; ++i)
    host[i] = std::sin(0.01f * i);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int errors = 0;
  for (int r = 0; r < repeats; ++r) {
    cudaMemset(out, 0, n * sizeof(float));
    smooth<<<(n + block - 1) / block, block>>>(in, out, n);
    cudaMemcpy(result.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
      float left = i > 0 ? host[i - 1] : 0.0f;
      float right = i + 1 < n ? host[i + 1] : 0.0f;
      float expected = 0.25f * left + 0.5f * host[i] + 0.25f * right;
      if (std::fabs(result[i] - expected) > 1e-6f)
        ++errors;
    }
  }
  cudaFree(in);
  cudaFree(out);
  return errors;
}

int main() {
  int errors = run(5000, 128, 6) + run(10000, 64, 6);
  std::printf("%d errors\n%s\n", errors, errors ? "FAILED" : "PASSED");
  return errors != 0;
}
