// Included by dependency-file.cu: must appear in its dependency file.
#define DEP_SCALE 3
