/* LD_PRELOAD shim: refuses the AMX permission request
 * (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)) as a
 * kernel without AMX support or a seccomp filter would, says so once on
 * stderr, and passes every other syscall() on. A model whose AMX kernels
 * ran anyway would die of SIGILL on its first tile instruction. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

long syscall(long number, ...) {
  va_list ap;
  long a[6];
  va_start(ap, number);
  for (int i = 0; i < 6; ++i)
    a[i] = va_arg(ap, long);
  va_end(ap);
  if (number == 158 && a[0] == 0x1023) {
    fprintf(stderr, "refuse_amx: refused ARCH_REQ_XCOMP_PERM\n");
    errno = EPERM;
    return -1;
  }
  long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
