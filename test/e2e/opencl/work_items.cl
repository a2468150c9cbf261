// Work-item functions in 1, 2 and 3 dimensions, with and without a global
// offset and with the work-group size left to respec: every work-item
// records what it sees and the host checks it against the NDRange.
// RUN: %respec %s %S/Inputs/work_items_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/work_items_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: 1-D: ok
// CHECK: 2-D with offset: ok
// CHECK: 3-D: ok
// CHECK: default work-group size: ok
// CHECK: PASS

typedef struct {
  uint work_dim;
  uint global_id[3], local_id[3], group_id[3];
  uint global_size[3], local_size[3], num_groups[3], global_offset[3];
  uint out_of_range[4]; // each function at dimension 3
} WorkItem;

__kernel void record(__global WorkItem *items) {
  // Linear index over the NDRange, independent of the offset.
  size_t gx = get_global_id(0) - get_global_offset(0);
  size_t gy = get_global_id(1) - get_global_offset(1);
  size_t gz = get_global_id(2) - get_global_offset(2);
  size_t linear =
      gx + get_global_size(0) * (gy + get_global_size(1) * gz);
  __global WorkItem *w = &items[linear];
  w->work_dim = get_work_dim();
  for (uint d = 0; d < 3; ++d) {
    w->global_id[d] = get_global_id(d);
    w->local_id[d] = get_local_id(d);
    w->group_id[d] = get_group_id(d);
    w->global_size[d] = get_global_size(d);
    w->local_size[d] = get_local_size(d);
    w->num_groups[d] = get_num_groups(d);
    w->global_offset[d] = get_global_offset(d);
  }
  w->out_of_range[0] = get_global_id(3);
  w->out_of_range[1] = get_local_size(3);
  w->out_of_range[2] = get_num_groups(7);
  w->out_of_range[3] = get_global_size(5);
}
