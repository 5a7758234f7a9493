/* Runs one compiled model (float or 8-bit inputs) on deterministic inputs
 * with NAME_run and NAME_run_parallel and checks that every output is
 * bit-identical to NAME_run's:
 *   - 4 application threads making the process's first calls (NAME_run)
 *     at once, before any other: the first call computes the constants the
 *     object keeps packed (4-bit weights), once, while the others wait;
 *   - NAME_run_parallel with no parallel-for, and with pools of 1, 2 and 3
 *     threads (onnxq_pool.h);
 *   - 4 application threads calling NAME_run_parallel at once, 10 times
 *     each, with distinct workspaces and outputs: all sharing one pool of 2
 *     threads, then each with a pool of its own;
 *   - 4 application threads calling NAME_run at once, 10 times each, with
 *     distinct workspaces and outputs (threads_check.py also builds this
 *     harness with AddressSanitizer: no read or write outside a buffer).
 * Prints one PASS/FAIL line per check; exit 1 on a mismatch.
 *
 *   cc -O2 -pthread -DONNXQ_MODEL=NAME -include NAME.h -I <repo>/include \
 *      concurrent_runs.c NAME.o -lm
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnxq_pool.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FN(suffix) CAT(ONNXQ_MODEL, suffix)

enum { kAppThreads = 4, kCallsPerThread = 10, kMaxIO = 16 };

static size_t element_bytes(int dtype) {
  switch (dtype) {
  case 2: case 3: case 9: return 1;          /* uint8, int8, bool */
  case 4: case 5: case 10: case 16: return 2; /* (u)int16, float16, bfloat16 */
  case 7: case 11: case 12: case 13: return 8;
  default: return 4;
  }
}

static size_t bytes_of(const onnxq_tensor_info *info) {
  return info->num_elements * element_bytes(info->dtype);
}

typedef struct {
  void *outputs[kMaxIO];
} output_set;

static const void *inputs[kMaxIO];
static output_set reference;
static int num_inputs, num_outputs;

static void alloc_outputs(output_set *set) {
  for (int i = 0; i < num_outputs; ++i) {
    size_t n = bytes_of(FN(_output_info)(i));
    set->outputs[i] = malloc(n ? n : 1);
    memset(set->outputs[i], 0xA5, n);
  }
}

static void free_outputs(output_set *set) {
  for (int i = 0; i < num_outputs; ++i)
    free(set->outputs[i]);
}

static int same_as_reference(const output_set *set) {
  for (int i = 0; i < num_outputs; ++i)
    if (memcmp(set->outputs[i], reference.outputs[i],
               bytes_of(FN(_output_info)(i))) != 0)
      return 0;
  return 1;
}

/* A float input gets values in [-2, 2); others bytes from the same LCG. */
static void fill_input(void *data, const onnxq_tensor_info *info, unsigned seed) {
  uint32_t state = 12345u + seed;
  size_t n = info->num_elements;
  for (size_t k = 0; k < n; ++k) {
    state = state * 1664525u + 1013904223u;
    if (info->dtype == 1)
      ((float *)data)[k] = (float)(state >> 8) / (float)(1u << 24) * 4.0f - 2.0f;
    else
      memset((char *)data + k * element_bytes(info->dtype), (int)(state >> 24),
             element_bytes(info->dtype));
  }
}

static int run_parallel(output_set *set, onnxq_pool *pool, int threads) {
  size_t bytes = FN(_workspace_size_parallel)(threads);
  void *workspace = malloc(bytes ? bytes : 1);
  int status = FN(_run_parallel)(inputs, set->outputs, workspace,
                                 pool ? onnxq_pool_parallel_for : NULL, pool,
                                 threads);
  free(workspace);
  return status;
}

static int failures;

static void report(int ok, const char *what) {
  printf("%s  %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

/* The first calls of the process, at once; outputs checked later. */
static output_set first_outputs[kAppThreads];
static int first_status[kAppThreads];

static void *first_call_main(void *arg) {
  int i = (int)(size_t)arg;
  size_t bytes = FN(_workspace_size)();
  void *workspace = malloc(bytes ? bytes : 1);
  first_status[i] = FN(_run)(inputs, first_outputs[i].outputs, workspace);
  free(workspace);
  return NULL;
}

static void first_calls_at_once(void) {
  pthread_t threads[kAppThreads];
  int started[kAppThreads];
  for (int i = 0; i < kAppThreads; ++i) {
    alloc_outputs(&first_outputs[i]);
    first_status[i] = -1;
    started[i] = pthread_create(&threads[i], NULL, first_call_main,
                                (void *)(size_t)i) == 0;
  }
  for (int i = 0; i < kAppThreads; ++i)
    if (started[i])
      pthread_join(threads[i], NULL);
}

typedef struct {
  onnxq_pool *pool; /* shared, or NULL: a pool of its own */
  int serial;       /* NAME_run with a workspace of its own, no pool */
  int ok;
} app_thread;

static int run_serial(output_set *set) {
  size_t bytes = FN(_workspace_size)();
  void *workspace = malloc(bytes ? bytes : 1);
  int status = FN(_run)(inputs, set->outputs, workspace);
  free(workspace);
  return status;
}

static void *app_thread_main(void *arg) {
  app_thread *t = (app_thread *)arg;
  onnxq_pool *pool =
      t->serial ? NULL : t->pool ? t->pool : onnxq_pool_create(2);
  output_set set;
  alloc_outputs(&set);
  t->ok = t->serial || pool != NULL;
  for (int call = 0; call < kCallsPerThread && t->ok; ++call) {
    for (int i = 0; i < num_outputs; ++i)
      memset(set.outputs[i], 0xA5, bytes_of(FN(_output_info)(i)));
    int status = t->serial ? run_serial(&set) : run_parallel(&set, pool, 2);
    t->ok = status == 0 && same_as_reference(&set);
  }
  free_outputs(&set);
  if (!t->serial && !t->pool)
    onnxq_pool_destroy(pool);
  return NULL;
}

static void concurrent(onnxq_pool *shared, int serial, const char *what) {
  pthread_t threads[kAppThreads];
  app_thread state[kAppThreads];
  int ok = 1;
  for (int i = 0; i < kAppThreads; ++i) {
    state[i].pool = shared;
    state[i].serial = serial;
    state[i].ok = 0;
    if (pthread_create(&threads[i], NULL, app_thread_main, &state[i]) != 0)
      ok = 0;
  }
  for (int i = 0; i < kAppThreads; ++i) {
    pthread_join(threads[i], NULL);
    ok &= state[i].ok;
  }
  report(ok, what);
}

int main(void) {
  num_inputs = FN(_num_inputs)();
  num_outputs = FN(_num_outputs)();
  if (num_inputs > kMaxIO || num_outputs > kMaxIO) {
    fprintf(stderr, "too many inputs or outputs\n");
    return 2;
  }
  for (int i = 0; i < num_inputs; ++i) {
    const onnxq_tensor_info *info = FN(_input_info)(i);
    void *data = malloc(bytes_of(info) ? bytes_of(info) : 1);
    fill_input(data, info, (unsigned)i);
    inputs[i] = data;
  }
  first_calls_at_once();
  alloc_outputs(&reference);
  if (FN(_run)(inputs, reference.outputs, NULL) != 0) {
    fprintf(stderr, "run failed\n");
    return 2;
  }
  int first_ok = 1;
  for (int i = 0; i < kAppThreads; ++i) {
    first_ok &= first_status[i] == 0 && same_as_reference(&first_outputs[i]);
    free_outputs(&first_outputs[i]);
  }
  report(first_ok, "4 application threads making the first calls at once equal run");

  output_set set;
  alloc_outputs(&set);
  report(run_parallel(&set, NULL, 4) == 0 && same_as_reference(&set),
         "run_parallel without a parallel-for equals run");
  for (int threads = 1; threads <= 3; ++threads) {
    onnxq_pool *pool = onnxq_pool_create(threads);
    char what[96];
    for (int i = 0; i < num_outputs; ++i)
      memset(set.outputs[i], 0xA5, bytes_of(FN(_output_info)(i)));
    snprintf(what, sizeof what, "run_parallel on %d thread%s equals run",
             threads, threads == 1 ? "" : "s");
    report(pool && run_parallel(&set, pool, threads) == 0 &&
               same_as_reference(&set),
           what);
    onnxq_pool_destroy(pool);
  }
  free_outputs(&set);

  onnxq_pool *shared = onnxq_pool_create(2);
  concurrent(shared, 0, "4 application threads sharing a pool of 2 equal run");
  onnxq_pool_destroy(shared);
  concurrent(NULL, 0, "4 application threads with a pool of 2 each equal run");
  concurrent(NULL, 1, "4 application threads calling run at once equal run");
  free_outputs(&reference);
  for (int i = 0; i < num_inputs; ++i)
    free((void *)inputs[i]);
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
