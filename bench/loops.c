/* loops.c: where a compiled model loses time on several threads, loop by
 * loop. Built by bench/loops.py with -include m.h (entry m) and linked
 * without PIE, so that the task functions' addresses name their nodes
 * (nm). The model's parallel-for is wrapped: every split loop is timed, and
 * each of its parts, by the thread that ran it. Calls alternate between two
 * modes, so that a shared host's load falls on both alike:
 *   - serial: the wrapper runs the loop's parts one after the other on the
 *     calling thread (the work of the loop as one thread does it);
 *   - pool: the parts go to onnxq_pool.h's pool of `threads` threads.
 * The modes alternate in bursts of 4 calls, the first of each untimed: a
 * call then starts from its own mode's data placement (with two threads,
 * lines where the thread that wrote them left them; a pool call right
 * after a serial one found every line in the calling thread's caches).
 * Per loop (task function): the serial parts' sum, the loop's time in pool
 * mode (from the hand-over to the last part's end), the calling thread's
 * part and the other threads' parts; and each mode's whole call (means, so
 * that the loops' sums compare with them).
 * Usage: loops [threads] [calls]; prints one line per loop:
 *   loop <address> <serial> <pool> <caller's part> <the others' parts, summed>
 * (microseconds per call)
 * and a last line: calls <serial us> <pool us>. */
/* The workers spin through the serial calls, where they would sleep after
   some 20,000 pauses and the next pool call would wait for them to wake. */
#define ONNXQ_POOL_SPINS 4000000000u
#include "harness.h"
#include "onnxq_pool.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_LOOPS 1024
#define MAX_TENSORS 16

typedef struct {
  onnxq_task_fn fn;
  double serial, pool, caller; /* ns, summed over the calls */
  int64_t workers;             /* ns; the workers add to it at once */
} loop_times;

static loop_times loops[MAX_LOOPS];
static int num_loops;
static int serial_mode, recording;
static pthread_t calling_thread;
static onnxq_pool *pool;

static loop_times *loop_of(onnxq_task_fn fn) {
  for (int i = 0; i < num_loops; ++i)
    if (loops[i].fn == fn)
      return &loops[i];
  if (num_loops == MAX_LOOPS) {
    fprintf(stderr, "loops: more than %d split loops\n", MAX_LOOPS);
    exit(1);
  }
  loops[num_loops].fn = fn;
  return &loops[num_loops++];
}

typedef struct {
  onnxq_task_fn fn;
  void *ctx;
  loop_times *times;
} timed_task;

/* A part in pool mode, timed on the thread that runs it. */
static void run_timed_part(void *ctx, int64_t begin, int64_t end) {
  timed_task *task = ctx;
  double t0 = now_ns();
  task->fn(task->ctx, begin, end);
  double dt = now_ns() - t0;
  if (!recording)
    return;
  if (pthread_equal(pthread_self(), calling_thread))
    task->times->caller += dt;
  else
    __atomic_fetch_add(&task->times->workers, (int64_t)dt, __ATOMIC_RELAXED);
}

static void profiled_parallel_for(void *p, int64_t n, onnxq_task_fn fn, void *ctx) {
  loop_times *times = loop_of(fn);
  double t0 = now_ns();
  if (serial_mode) {
    for (int64_t part = 0; part < n; ++part)
      fn(ctx, part, part + 1);
    if (recording)
      times->serial += now_ns() - t0;
    return;
  }
  timed_task task = {fn, ctx, times};
  onnxq_pool_parallel_for(p, n, run_timed_part, &task);
  if (recording)
    times->pool += now_ns() - t0;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2, calls = argc > 2 ? atoi(argv[2]) : 2000;
  int ni = m_num_inputs(), no = m_num_outputs();
  if (threads < 2 || calls < 2 || ni > MAX_TENSORS || no > MAX_TENSORS) {
    fprintf(stderr, "usage: loops [threads >= 2] [calls >= 2]\n");
    return 2;
  }
  const void *in[MAX_TENSORS];
  void *out[MAX_TENSORS];
  for (int i = 0; i < ni; ++i)
    in[i] = make_input(m_input_info(i)->dtype, m_input_size(i));
  for (int i = 0; i < no; ++i)
    out[i] = calloc(1, m_output_size(i) * element_bytes(m_output_info(i)->dtype) + 1);
  void *workspace = malloc(m_workspace_size_parallel(threads) + 1);
  double serial = 0, pooled = 0;
  pool = onnxq_pool_create(threads);
  calling_thread = pthread_self();
  if (!workspace || !pool) {
    fprintf(stderr, "loops: out of memory\n");
    return 1;
  }
  for (int w = 0; w < 100; ++w)
    if (m_run_parallel(in, out, workspace, onnxq_pool_parallel_for, pool, threads)) {
      fprintf(stderr, "loops: the model returned an error\n");
      return 1;
    }
  enum { burst = 4 };
  int timed = 0;
  for (int block = 0; timed < calls; ++block) {
    serial_mode = block % 2 == 0;
    for (int call = 0; call < burst; ++call) {
      recording = call > 0;
      double t0 = now_ns();
      m_run_parallel(in, out, workspace, profiled_parallel_for, pool, threads);
      if (recording)
        *(serial_mode ? &serial : &pooled) += now_ns() - t0;
    }
    timed += serial_mode ? 0 : burst - 1;
  }
  calls = timed;
  for (int i = 0; i < num_loops; ++i)
    printf("loop %p %.3f %.3f %.3f %.3f\n", (void *)loops[i].fn, loops[i].serial / calls / 1e3,
           loops[i].pool / calls / 1e3, loops[i].caller / calls / 1e3,
           (double)loops[i].workers / calls / 1e3);
  printf("calls %.3f %.3f\n", serial / calls / 1e3, pooled / calls / 1e3);
  onnxq_pool_destroy(pool);
  return 0;
}
