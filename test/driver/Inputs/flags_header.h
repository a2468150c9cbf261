// Included through -I%S/Inputs by nvcc-flags.cu.
#define FLAGS_HEADER_MAGIC 42
__device__ inline int addMagic(int v) { return v + FLAGS_HEADER_MAGIC; }
