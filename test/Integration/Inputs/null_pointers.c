/* The NULL-pointer contract of NAME_run (docs/input-validation.md): NULL
   arrays or a NULL pointer in them return ONNXQ_STATUS_NULL_POINTER, never
   crash. Built with -include m.h; prints one status per case. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const void *ins[M_NUM_INPUTS];
  void *outs[M_NUM_OUTPUTS];
  for (int i = 0; i < M_NUM_INPUTS; ++i)
    ins[i] = calloc(m_input_size(i), 8);
  for (int i = 0; i < M_NUM_OUTPUTS; ++i)
    outs[i] = calloc(m_output_size(i), 8);
  printf("null inputs: %d\n", m_run(NULL, outs, NULL));
  printf("null outputs: %d\n", m_run(ins, NULL, NULL));
  const void *saved = ins[1];
  ins[1] = NULL;
  printf("null input 1: %d\n", m_run(ins, outs, NULL));
  ins[1] = saved;
  void *savedOut = outs[2];
  outs[2] = NULL;
  printf("null output 2: %d\n", m_run(ins, outs, NULL));
  outs[2] = savedOut;
  printf("valid: %d\n", m_run(ins, outs, NULL));
  for (int i = 0; i < M_NUM_INPUTS; ++i)
    free((void *)ins[i]);
  for (int i = 0; i < M_NUM_OUTPUTS; ++i)
    free(outs[i]);
  return 0;
}
