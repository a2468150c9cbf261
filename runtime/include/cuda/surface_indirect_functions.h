//===- surface_indirect_functions.h - Surface object functions -----------===//
//
// respec's texture_indirect_functions.h declares the surface functions too.
//
//===----------------------------------------------------------------------===//

#include "texture_indirect_functions.h"
