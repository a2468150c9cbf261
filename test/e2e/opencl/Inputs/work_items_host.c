// Host of work_items.cl: launches `record` over several NDRanges.
#include <respec/opencl.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  unsigned work_dim;
  unsigned global_id[3], local_id[3], group_id[3];
  unsigned global_size[3], local_size[3], num_groups[3], global_offset[3];
  unsigned out_of_range[4];
} WorkItem;

static int failures;

static void expect(int ok, const char *what, size_t item, unsigned got,
                   unsigned want) {
  if (!ok && failures++ < 10)
    printf("  item %zu: %s = %u, expected %u\n", item, what, got, want);
}

#define EXPECT(what, got, want)                                                \
  expect((got) == (want), what, item, (unsigned)(got), (unsigned)(want))

static void run(const char *label, unsigned dims, const size_t *offset,
                const size_t *global, const size_t *local) {
  int before = failures;
  size_t total = 1, g[3] = {1, 1, 1}, l[3] = {1, 1, 1}, o[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; ++d) {
    g[d] = global[d];
    l[d] = local ? local[d] : 0;
    o[d] = offset ? offset[d] : 0;
    total *= global[d];
  }
  WorkItem *items = calloc(total, sizeof(WorkItem));
  respec_cl_kernel *kernel = respec_cl_create_kernel("record", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof(items), &items);
  int status = respec_cl_enqueue_ndrange(kernel, dims, offset, global, local);
  if (status != RESPEC_CL_SUCCESS) {
    printf("%s: enqueue failed: %s\n", label, respec_cl_status_string(status));
    ++failures;
    return;
  }
  // respec's choice when local is null: a divisor of the global size.
  if (!local) {
    l[0] = items[0].local_size[0];
    l[1] = items[0].local_size[1];
    l[2] = items[0].local_size[2];
    if (g[0] % l[0] != 0 || l[1] != 1 || l[2] != 1) {
      printf("%s: bad default work-group size %zu\n", label, l[0]);
      ++failures;
    }
  }
  for (size_t item = 0; item < total; ++item) {
    size_t id[3] = {item % g[0], item / g[0] % g[1], item / (g[0] * g[1])};
    const WorkItem *w = &items[item];
    EXPECT("work_dim", w->work_dim, dims);
    for (int d = 0; d < 3; ++d) {
      EXPECT("global_id", w->global_id[d], id[d] + o[d]);
      EXPECT("local_id", w->local_id[d], id[d] % l[d]);
      EXPECT("group_id", w->group_id[d], id[d] / l[d]);
      EXPECT("global_size", w->global_size[d], g[d]);
      EXPECT("local_size", w->local_size[d], l[d]);
      EXPECT("num_groups", w->num_groups[d], g[d] / l[d]);
      EXPECT("global_offset", w->global_offset[d], o[d]);
    }
    EXPECT("get_global_id(3)", w->out_of_range[0], 0);
    EXPECT("get_local_size(3)", w->out_of_range[1], 1);
    EXPECT("get_num_groups(7)", w->out_of_range[2], 1);
    EXPECT("get_global_size(5)", w->out_of_range[3], 1);
  }
  respec_cl_release_kernel(kernel);
  free(items);
  printf("%s: %s\n", label, failures == before ? "ok" : "FAILED");
}

int main(void) {
  size_t g1[1] = {96}, l1[1] = {32};
  run("1-D", 1, NULL, g1, l1);
  size_t o2[2] = {5, 7}, g2[2] = {12, 10}, l2[2] = {4, 5};
  run("2-D with offset", 2, o2, g2, l2);
  size_t g3[3] = {6, 4, 6}, l3[3] = {3, 2, 2};
  run("3-D", 3, NULL, g3, l3);
  size_t gd[1] = {90};
  run("default work-group size", 1, NULL, gd, NULL);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
