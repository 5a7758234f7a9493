/* ab_pair.c: times two compiled models, a and b (the same model from two
 * compilers), call by call and alternating, in one process: a neighbour's
 * load on a shared host then slows both alike, where runs one after the
 * other see different loads. Built by bench/ab.py with -include a.h
 * -include b.h (entries a and b); prints both medians and the median of the
 * per-pair ratios b/a. Inputs are a fixed pattern (floats in [-1, 1),
 * integers 0), the same for both; the outputs are compared byte for byte.
 * With a burst of B > 1 (third argument), each turn calls its model B times
 * and takes the mean of the last B - 1 calls: the model then finds its own
 * data in the caches, and in the cores that wrote it, as a program calling
 * one model again and again does. */
#include "harness.h"
#include "onnxq_pool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int by_value(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}
static double median(double *v, int n) {
  qsort(v, n, sizeof *v, by_value);
  return v[n / 2];
}

#define MAX_TENSORS 16
int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1, pairs = argc > 2 ? atoi(argv[2]) : 1000;
  int burst = argc > 3 ? atoi(argv[3]) : 1;
  if (burst < 1)
    burst = 1;
  int ni = a_num_inputs(), no = a_num_outputs();
  if (threads < 1 || pairs < 1 || ni > MAX_TENSORS || no > MAX_TENSORS ||
      ni != b_num_inputs() || no != b_num_outputs()) {
    fprintf(stderr, "usage: ab_pair [threads] [pairs] (models with the same interface)\n");
    return 2;
  }
  const void *in[MAX_TENSORS];
  void *out_a[MAX_TENSORS], *out_b[MAX_TENSORS];
  size_t out_bytes[MAX_TENSORS];
  for (int i = 0; i < ni; ++i)
    in[i] = make_input(a_input_info(i)->dtype, a_input_size(i));
  for (int i = 0; i < no; ++i) {
    out_bytes[i] = a_output_size(i) * element_bytes(a_output_info(i)->dtype);
    out_a[i] = calloc(1, out_bytes[i] + 1);
    out_b[i] = calloc(1, out_bytes[i] + 1);
  }
  /* + 1: never malloc(0), which may return NULL. */
  void *ws_a = malloc(a_workspace_size_parallel(threads) + 1);
  void *ws_b = malloc(b_workspace_size_parallel(threads) + 1);
  onnxq_pool *pool = onnxq_pool_create(threads);
  double *ta = malloc(pairs * sizeof(double)), *tb = malloc(pairs * sizeof(double)),
         *ratio = malloc(pairs * sizeof(double));
  if (!ws_a || !ws_b || !pool || !ta || !tb || !ratio) {
    fprintf(stderr, "ab_pair: out of memory\n");
    return 1;
  }
  /* Warm-up; a model that fails (a status other than 0) is not timed. */
  for (int w = 0; w < 100; ++w) {
    int status_a = a_run_parallel(in, out_a, ws_a, onnxq_pool_parallel_for, pool, threads);
    int status_b = b_run_parallel(in, out_b, ws_b, onnxq_pool_parallel_for, pool, threads);
    if (status_a || status_b) {
      fprintf(stderr, "ab_pair: a returned %d, b returned %d\n", status_a, status_b);
      return 1;
    }
  }
  for (int i = 0; i < pairs; ++i) {
    for (int k = 0; k < 2; ++k) {
      int run_a = (i + k) % 2; /* a first in every other pair */
      double t0 = 0;
      for (int call = 0; call < burst; ++call) {
        if (call == (burst > 1))
          t0 = now_ns();
        if (run_a)
          a_run_parallel(in, out_a, ws_a, onnxq_pool_parallel_for, pool, threads);
        else
          b_run_parallel(in, out_b, ws_b, onnxq_pool_parallel_for, pool, threads);
      }
      (run_a ? ta : tb)[i] = (now_ns() - t0) / (burst > 1 ? burst - 1 : 1);
    }
    ratio[i] = tb[i] / ta[i];
  }
  int same = 1;
  for (int i = 0; i < no; ++i)
    same &= memcmp(out_a[i], out_b[i], out_bytes[i]) == 0;
  printf("threads %d pairs %d%s: a %.4f ms, b %.4f ms (medians); b/a %.4f (median of pairs)%s\n",
         threads, pairs, burst > 1 ? " (bursts)" : "", median(ta, pairs) / 1e6, median(tb, pairs) / 1e6,
         median(ratio, pairs), same ? "" : "; outputs differ");
  onnxq_pool_destroy(pool);
  return 0;
}
