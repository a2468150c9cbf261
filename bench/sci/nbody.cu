// NBODY: one time step (kick, then drift) of n gravitating bodies with
// all-pairs forces (softened, G = 1). Each thread accumulates the
// acceleration of one body; the block walks over all bodies in tiles of BLOCK,
// staging each tile's positions and masses in shared memory (two barriers per
// tile). Then the velocities and positions are advanced.
#include "common.h"
#include <cuda_runtime.h>

#ifndef BODIES
#define BODIES 10240
#endif
#ifndef STEPS
#define STEPS 1
#endif
#define BLOCK 256
#define SOFTENING 0.01f
#define DT 0.01f

__global__ void bodyForces(const float4 *pos, float3 *vel, int n) {
  __shared__ float4 tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float4 me = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int t0 = 0; t0 < n; t0 += BLOCK) {
    tile[threadIdx.x] = pos[t0 + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < BLOCK; ++j) {
      float4 o = tile[j];
      float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
      float r2 = dx * dx + dy * dy + dz * dz + SOFTENING;
      float inv = 1.0f / sqrtf(r2);
      float s = o.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  float3 v = vel[i];
  v.x += DT * ax;
  v.y += DT * ay;
  v.z += DT * az;
  vel[i] = v;
}

__global__ void bodyMove(float4 *pos, const float3 *vel, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) {
    pos[i].x += DT * vel[i].x;
    pos[i].y += DT * vel[i].y;
    pos[i].z += DT * vel[i].z;
  }
}

int main() {
  const int n = BODIES; // a multiple of BLOCK
  std::vector<float> x, y, z, vx, vy, vz, m;
  makeBodies(n, x, y, z, vx, vy, vz, m);
  std::vector<float4> pos(n);
  std::vector<float3> vel(n);
  for (int i = 0; i < n; ++i) {
    pos[i] = make_float4(x[i], y[i], z[i], m[i]);
    vel[i] = make_float3(vx[i], vy[i], vz[i]);
  }
  float4 *dPos;
  float3 *dVel;
  cudaMalloc(&dPos, n * sizeof(float4));
  cudaMalloc(&dVel, n * sizeof(float3));
  timeIt(
      [&] {
        cudaMemcpy(dPos, pos.data(), n * sizeof(float4),
                   cudaMemcpyHostToDevice);
        cudaMemcpy(dVel, vel.data(), n * sizeof(float3),
                   cudaMemcpyHostToDevice);
      },
      [&] {
        for (int s = 0; s < STEPS; ++s) {
          bodyForces<<<n / BLOCK, BLOCK>>>(dPos, dVel, n);
          bodyMove<<<n / BLOCK, BLOCK>>>(dPos, dVel, n);
        }
        cudaDeviceSynchronize();
      });
  cudaMemcpy(pos.data(), dPos, n * sizeof(float4), cudaMemcpyDeviceToHost);
  cudaMemcpy(vel.data(), dVel, n * sizeof(float3), cudaMemcpyDeviceToHost);
  std::vector<float> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(pos[i].x);
    out.push_back(pos[i].y);
    out.push_back(pos[i].z);
    out.push_back(100 * vel[i].x);
    out.push_back(100 * vel[i].y);
    out.push_back(100 * vel[i].z);
  }
  printChecksum(checksum(out));
  cudaFree(dPos);
  cudaFree(dVel);
  return 0;
}
