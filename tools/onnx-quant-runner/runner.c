/*
 * onnx-quant-runner: a generic command-line driver for one model compiled by
 * onnx-quant.
 * ============================================================================
 *
 * onnx-quant compiles a model with entry name NAME into NAME.o and NAME.h.
 * This file is built once per model; it only uses the ABI in NAME.h
 * (NAME_num_inputs, NAME_input_info, NAME_workspace_size, NAME_run, ...):
 *
 *   cc -std=c99 -O2 -DONNXQ_MODEL=NAME -include NAME.h runner.c NAME.o \
 *      -o run-NAME -lm
 *
 * It is plain C99 and POSIX threads (--threads, through the project's
 * include/onnxq_pool.h) with no host-specific code (files are little-endian
 * and are converted to host byte order), so it also builds with a cross
 * compiler such as aarch64-linux-gnu-gcc.
 *
 * Usage
 * -----
 *   run-NAME [--inputs FILE...] [--input-dir DIR] [--outputs-dir DIR]
 *            [--format npy|pb] [--expect FILE... | --expect-dir DIR]
 *            [--rtol R] [--atol A] [--repeat N] [--warmup MS] [--threads N] [--print]
 *            [--no-workspace]
 *   run-NAME --help        (also lists the model's inputs and outputs)
 *
 *   --inputs FILE...   one file per model input, in the model's input order.
 *                      ".npy" or ".pb" (ONNX TensorProto) by extension; other
 *                      names are recognised by the .npy magic.
 *   --input-dir DIR    an ONNX test_data_set_N folder: DIR/input_0.pb,
 *                      DIR/input_1.pb, ... (input_<i>.npy is used when the
 *                      .pb is absent). A file for an index past the model's
 *                      last input is an error.
 *                      With neither option, the model runs on all-zero inputs
 *                      (a note says so on stderr).
 *   --outputs-dir DIR  write output_<i>.npy or output_<i>.pb (i = output
 *                      index) into the existing directory DIR.
 *   --format npy|pb    format for --outputs-dir; default pb when --input-dir
 *                      was given, npy otherwise. .pb outputs carry the
 *                      model's output name, dims, data_type and raw_data.
 *   --expect FILE...   expected outputs, one per model output, in order.
 *   --expect-dir DIR   expected outputs DIR/output_<i>.pb (or .npy); with an
 *                      ONNX test_data_set_N folder, pass the --input-dir DIR.
 *   --rtol R --atol A  tolerances (default rtol 1e-4, atol 1e-5), see below.
 *   --repeat N         run N times and print the median time per run.
 *   --warmup MS        first call the model untimed for MS milliseconds (at
 *                      least once): a pool's threads are running and the
 *                      caches warm when the timed runs start.
 *   --threads N        call NAME_run_parallel with a pool of N threads
 *                      (onnxq_pool.h; N = 1 runs it on the calling thread)
 *                      instead of NAME_run.
 *   --print            print the first 20 values and the argmax of each output.
 *   --no-workspace     pass workspace = NULL to NAME_run instead of a
 *                      malloc(NAME_workspace_size()) buffer (which the
 *                      runner fills with 0x7F bytes: reads of workspace
 *                      the model never wrote show in its outputs).
 *
 * Input and expected-output rules
 * -------------------------------
 *   - The dtype must equal the model's dtype exactly; nothing is converted.
 *     One exception: uint16 data is taken as the bit patterns of a bfloat16
 *     model tensor (ONNX's test data stores bfloat16 tensors as uint16), and
 *     bfloat16 is written to .npy as '<u2' bit patterns (numpy has no
 *     bfloat16).
 *   - The shape must equal the model's shape, with one convenience: a single
 *     leading dimension of 1 may be added or dropped ([1,2,3] is accepted for
 *     a model shape [2,3], and [2,3] for [1,2,3]). Nothing else is reshaped.
 *   - .npy: format versions 1.0, 2.0 and 3.0; little-endian '<f2 <f4 <f8 <i2
 *     <u2 <i4 <u4 <i8 <u8' and '|i1 |u1 |b1'; C order only (fortran_order
 *     True and big-endian data are rejected).
 *   - .pb: a serialized onnx.TensorProto, read by a small built-in protobuf
 *     reader: dims, data_type, name, raw_data or the typed field matching the
 *     data_type (float_data, int32_data (also int8/uint8/int16/uint16/bool/
 *     float16), int64_data, double_data, uint64_data (uint32/uint64)).
 *     string_data, segments and external data (data_location EXTERNAL) are
 *     rejected; unknown fields are skipped.
 *
 * Comparison (--expect, --expect-dir)
 * -----------------------------------
 *   Every element is converted to double (float16 too) and passes when
 *   |actual - expected| <= atol + rtol * |expected|. NaN equals NaN; an
 *   infinity only equals the same infinity. Integer and bool outputs are
 *   exact by default; an explicit --atol (or --rtol) applies to them too.
 *   One line per output gives name, dtype and shape, the worst absolute and
 *   relative differences, the worst element (largest absolute difference
 *   among the mismatches, or among all elements when all pass) with both
 *   values, the number of mismatches and PASS or FAIL.
 *   (int64/uint64 values above 2^53 lose precision in the double comparison.)
 *
 * Exit status
 * -----------
 *   0  ran (and every expected output matched)
 *   1  at least one output did not match its expected tensor
 *   2  usage, file or format error (the message names the file), a model ABI
 *      inconsistency, or NAME_run returning non-zero
 *
 * Timing uses clock_gettime(CLOCK_MONOTONIC) when the C library exposes it
 * (e.g. -std=gnu99 or -D_POSIX_C_SOURCE=199309L), otherwise the C99 clock(),
 * which measures CPU time; the timing line says which was used.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../include/onnxq_pool.h"

#ifndef ONNXQ_MODEL
#error "define ONNXQ_MODEL to the model's entry name, e.g. -DONNXQ_MODEL=mnist"
#endif
#ifndef ONNXQ_TENSOR_INFO_DEFINED
#error "include the model header first, e.g. -include mnist.h"
#endif

/* Model symbols are NAME_<suffix>; two levels so ONNXQ_MODEL is expanded. */
#define ONNXQ_CAT_(a, b) a##b
#define ONNXQ_CAT(a, b) ONNXQ_CAT_(a, b)
#define ONNXQ_STR_(a) #a
#define ONNXQ_STR(a) ONNXQ_STR_(a)
#define MODEL_FN(suffix) ONNXQ_CAT(ONNXQ_MODEL, suffix)
#define MODEL_NAME ONNXQ_STR(ONNXQ_MODEL)
#define PROG_NAME "run-" MODEL_NAME

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PRINTF_LIKE(fmt, args)
#endif

enum { RC_OK = 0, RC_MISMATCH = 1, RC_ERROR = 2 };

#define MAX_RANK 32
#define SHAPE_TEXT_MAX (MAX_RANK * 22 + 8) /* "[d,d,...]" with 64-bit dims */
#define PRINT_LIMIT 20
#define DEFAULT_RTOL 1e-4
#define DEFAULT_ATOL 1e-5

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */
/* ------------------------------------------------------------------------ */

/* Every file-related error goes through here so that it names the file. */
static int PRINTF_LIKE(2, 3) error_at(const char *path, const char *fmt, ...)
{
  va_list ap;
  fflush(stdout); /* keep stdout lines before the error when both go to a log */
  fprintf(stderr, PROG_NAME ": error: %s: ", path);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return RC_ERROR;
}

static int PRINTF_LIKE(1, 2) error_msg(const char *fmt, ...)
{
  va_list ap;
  fflush(stdout);
  fputs(PROG_NAME ": error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return RC_ERROR;
}

/* calloc that never returns NULL for a zero count (zero-sized tensors). */
static void *alloc_zeroed(size_t count, size_t size)
{
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    error_msg("out of memory (%zu x %zu bytes)", count, size);
  return p;
}

/* ------------------------------------------------------------------------ */
/* Data types                                                                */
/* ------------------------------------------------------------------------ */

enum {
  DT_FLOAT = 1, DT_UINT8 = 2, DT_INT8 = 3, DT_UINT16 = 4, DT_INT16 = 5,
  DT_INT32 = 6, DT_INT64 = 7, DT_BOOL = 9, DT_FLOAT16 = 10, DT_DOUBLE = 11,
  DT_UINT32 = 12, DT_UINT64 = 13, DT_BFLOAT16 = 16
};

typedef struct dtype_desc {
  int onnx;         /* TensorProto.DataType */
  const char *name; /* used in messages */
  char npy_kind;    /* numpy dtype kind: f, i, u, b (0: none) */
  size_t size;      /* bytes per element */
} dtype_desc;

static const dtype_desc kDtypes[] = {
    {DT_FLOAT, "float32", 'f', 4},   {DT_UINT8, "uint8", 'u', 1},
    {DT_INT8, "int8", 'i', 1},       {DT_UINT16, "uint16", 'u', 2},
    {DT_INT16, "int16", 'i', 2},     {DT_INT32, "int32", 'i', 4},
    {DT_INT64, "int64", 'i', 8},     {DT_BOOL, "bool", 'b', 1},
    {DT_FLOAT16, "float16", 'f', 2}, {DT_DOUBLE, "float64", 'f', 8},
    {DT_UINT32, "uint32", 'u', 4},   {DT_UINT64, "uint64", 'u', 8},
    {DT_BFLOAT16, "bfloat16", 0, 2},
};
#define NUM_DTYPES (sizeof kDtypes / sizeof kDtypes[0])

static const dtype_desc *dtype_lookup(int onnx)
{
  size_t i;
  for (i = 0; i < NUM_DTYPES; ++i)
    if (kDtypes[i].onnx == onnx)
      return &kDtypes[i];
  return NULL;
}

static const dtype_desc *dtype_from_npy(char kind, size_t size)
{
  size_t i;
  for (i = 0; i < NUM_DTYPES; ++i)
    if (kDtypes[i].npy_kind == kind && kDtypes[i].size == size)
      return &kDtypes[i];
  return NULL;
}

static const char *dtype_name(int onnx)
{
  const dtype_desc *d = dtype_lookup(onnx);
  return d ? d->name : "unsupported dtype";
}

static int dtype_is_float(int onnx)
{
  return onnx == DT_FLOAT || onnx == DT_DOUBLE || onnx == DT_FLOAT16 ||
         onnx == DT_BFLOAT16;
}

/* bfloat16 is the high half of a binary32. */
static double bfloat16_to_double(uint16_t b)
{
  uint32_t bits = (uint32_t)b << 16;
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

/* IEEE binary16 to double, bit by bit, so no compiler support is needed. */
static double half_to_double(uint16_t h)
{
  int exponent = (h >> 10) & 0x1f;
  int mantissa = h & 0x3ff;
  double v;
  if (exponent == 0)
    v = ldexp((double)mantissa, -24); /* zero or subnormal */
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = ldexp((double)(mantissa + 1024), exponent - 25);
  return (h & 0x8000) ? -v : v;
}

/* ------------------------------------------------------------------------ */
/* Tensors                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct tensor {
  char *name; /* from a .pb file, else NULL */
  int dtype;  /* TensorProto.DataType */
  int rank;
  int64_t dims[MAX_RANK];
  size_t count; /* number of elements */
  void *data;   /* count elements in host byte order */
} tensor;

static void tensor_free(tensor *t)
{
  free(t->name);
  free(t->data);
  memset(t, 0, sizeof *t);
}

static size_t tensor_elem_size(const tensor *t)
{
  return dtype_lookup(t->dtype)->size;
}

/* Product of dims, with overflow and negative-dim checks; -1 on failure. */
static int shape_count(const int64_t *dims, int rank, size_t *count)
{
  size_t n = 1;
  int d;
  for (d = 0; d < rank; ++d) {
    if (dims[d] < 0 || (uint64_t)dims[d] > SIZE_MAX)
      return -1;
    if (dims[d] != 0 && n > SIZE_MAX / (size_t)dims[d])
      return -1;
    n *= (size_t)dims[d];
  }
  *count = n;
  return 0;
}

/* Sets count from dims and allocates zeroed data; the dtype must be known. */
static int tensor_alloc(tensor *t, const char *path)
{
  size_t size = dtype_lookup(t->dtype)->size;
  if (shape_count(t->dims, t->rank, &t->count) || t->count > SIZE_MAX / size)
    return error_at(path, "tensor shape is too large or has negative dims");
  t->data = alloc_zeroed(t->count, size);
  return t->data ? RC_OK : RC_ERROR;
}

/* "[2,3]"; "[]" for a scalar. */
static const char *format_shape(char *buf, size_t cap, const int64_t *dims,
                                int rank)
{
  size_t used = 0;
  int d;
  used += (size_t)snprintf(buf, cap, "[");
  for (d = 0; d < rank && used < cap; ++d)
    used += (size_t)snprintf(buf + used, cap - used, "%s%" PRId64,
                             d ? "," : "", dims[d]);
  if (used < cap)
    snprintf(buf + used, cap - used, "]");
  return buf;
}

/* Flat element index to "[i,j,...]" in the tensor's shape. */
static const char *format_index(char *buf, size_t cap, const tensor *t,
                                size_t flat)
{
  int64_t idx[MAX_RANK];
  int d;
  for (d = t->rank - 1; d >= 0; --d) {
    size_t dim = (size_t)t->dims[d];
    idx[d] = dim ? (int64_t)(flat % dim) : 0;
    flat = dim ? flat / dim : 0;
  }
  return format_shape(buf, cap, idx, t->rank);
}

static const unsigned char *element_ptr(const tensor *t, size_t i)
{
  return (const unsigned char *)t->data + i * tensor_elem_size(t);
}

/* memcpy reads keep this free of alignment and aliasing assumptions. */
static double element_as_double(const tensor *t, size_t i)
{
  const unsigned char *p = element_ptr(t, i);
  switch (t->dtype) {
  case DT_FLOAT: { float v; memcpy(&v, p, sizeof v); return v; }
  case DT_DOUBLE: { double v; memcpy(&v, p, sizeof v); return v; }
  case DT_FLOAT16: { uint16_t v; memcpy(&v, p, sizeof v); return half_to_double(v); }
  case DT_BFLOAT16: { uint16_t v; memcpy(&v, p, sizeof v); return bfloat16_to_double(v); }
  case DT_UINT8: case DT_BOOL: return *p;
  case DT_INT8: return (int8_t)*p;
  case DT_UINT16: { uint16_t v; memcpy(&v, p, sizeof v); return v; }
  case DT_INT16: { int16_t v; memcpy(&v, p, sizeof v); return v; }
  case DT_UINT32: { uint32_t v; memcpy(&v, p, sizeof v); return v; }
  case DT_INT32: { int32_t v; memcpy(&v, p, sizeof v); return v; }
  case DT_UINT64: { uint64_t v; memcpy(&v, p, sizeof v); return (double)v; }
  case DT_INT64: { int64_t v; memcpy(&v, p, sizeof v); return (double)v; }
  default: return NAN;
  }
}

/* Integers are printed exactly (no detour through double). */
static const char *format_element(char *buf, size_t cap, const tensor *t,
                                  size_t i)
{
  const unsigned char *p = element_ptr(t, i);
  switch (t->dtype) {
  case DT_DOUBLE:
    snprintf(buf, cap, "%.17g", element_as_double(t, i));
    break;
  case DT_FLOAT: case DT_FLOAT16: case DT_BFLOAT16:
    snprintf(buf, cap, "%.9g", element_as_double(t, i));
    break;
  case DT_UINT64: {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    snprintf(buf, cap, "%" PRIu64, v);
    break;
  }
  case DT_INT64: {
    int64_t v;
    memcpy(&v, p, sizeof v);
    snprintf(buf, cap, "%" PRId64, v);
    break;
  }
  default: /* narrower integers and bool are exact in a double */
    snprintf(buf, cap, "%.0f", element_as_double(t, i));
    break;
  }
  return buf;
}

/* ------------------------------------------------------------------------ */
/* Byte order: files are little-endian, tensors in memory are host order     */
/* ------------------------------------------------------------------------ */

static int host_is_little_endian(void)
{
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1;
}

static void reverse_bytes(unsigned char *p, size_t n)
{
  size_t i;
  for (i = 0; i < n / 2; ++i) {
    unsigned char tmp = p[i];
    p[i] = p[n - 1 - i];
    p[n - 1 - i] = tmp;
  }
}

/* In place; a no-op on little-endian hosts. */
static void le_to_host(void *data, size_t count, size_t size)
{
  size_t i;
  if (host_is_little_endian() || size == 1)
    return;
  for (i = 0; i < count; ++i)
    reverse_bytes((unsigned char *)data + i * size, size);
}

static void fwrite_le(FILE *f, const void *data, size_t count, size_t size)
{
  size_t i;
  if (host_is_little_endian() || size == 1) {
    fwrite(data, size, count, f);
    return;
  }
  for (i = 0; i < count; ++i) {
    unsigned char tmp[8];
    memcpy(tmp, (const unsigned char *)data + i * size, size);
    reverse_bytes(tmp, size);
    fwrite(tmp, 1, size, f);
  }
}

static uint64_t load_le(const unsigned char *p, int nbytes)
{
  uint64_t v = 0;
  int i;
  for (i = nbytes - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

/* ------------------------------------------------------------------------ */
/* Files                                                                     */
/* ------------------------------------------------------------------------ */

/* Reads a whole file; works for pipes too since it does not seek. */
static int read_file(const char *path, unsigned char **out, size_t *out_len)
{
  FILE *f = fopen(path, "rb");
  unsigned char *buf;
  size_t cap = 1 << 16, len = 0, got;
  if (!f)
    return error_at(path, "cannot open: %s", strerror(errno));
  buf = malloc(cap);
  while (buf) {
    if (len == cap) {
      unsigned char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0)
      break;
  }
  if (!buf) {
    fclose(f);
    return error_at(path, "out of memory while reading");
  }
  if (ferror(f)) {
    fclose(f);
    free(buf);
    return error_at(path, "read error (is it a directory?)");
  }
  fclose(f);
  *out = buf;
  *out_len = len;
  return RC_OK;
}

static int file_exists(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (f)
    fclose(f);
  return f != NULL;
}

/* "DIR/PREFIX_INDEX.EXT", malloc'd. */
static char *path_join(const char *dir, const char *prefix, int index,
                       const char *ext)
{
  size_t cap = strlen(dir) + strlen(prefix) + strlen(ext) + 32;
  char *path = malloc(cap);
  if (!path) {
    error_msg("out of memory");
    return NULL;
  }
  snprintf(path, cap, "%s/%s_%d.%s", dir, prefix, index, ext);
  return path;
}

/* Flushes and closes, turning any buffered write failure into an error. */
static int close_written(FILE *f, const char *path)
{
  int failed = ferror(f);
  failed |= fclose(f) != 0;
  return failed ? error_at(path, "write failed") : RC_OK;
}

static int has_suffix(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ------------------------------------------------------------------------ */
/* .npy reading                                                              */
/* ------------------------------------------------------------------------ */

static const unsigned char kNpyMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

static void skip_spaces(const char **p)
{
  while (**p && isspace((unsigned char)**p))
    ++*p;
}

/* Consumes c (after spaces) when it is next. */
static int accept_char(const char **p, char c)
{
  skip_spaces(p);
  if (**p != c)
    return 0;
  ++*p;
  return 1;
}

/* A Python string literal without escapes, '...' or "...". */
static int parse_py_string(const char **p, char *out, size_t cap)
{
  char quote;
  size_t n = 0;
  skip_spaces(p);
  quote = **p;
  if (quote != '\'' && quote != '"')
    return -1;
  ++*p;
  while (**p && **p != quote) {
    if (n + 1 >= cap)
      return -1;
    out[n++] = *(*p)++;
  }
  if (**p != quote)
    return -1;
  ++*p;
  out[n] = '\0';
  return 0;
}

static int parse_py_bool(const char **p, int *out)
{
  skip_spaces(p);
  if (strncmp(*p, "True", 4) == 0) {
    *p += 4;
    *out = 1;
    return 0;
  }
  if (strncmp(*p, "False", 5) == 0) {
    *p += 5;
    *out = 0;
    return 0;
  }
  return -1;
}

/* A non-negative int64; the 'L' suffix of Python 2 era files is accepted. */
static int parse_py_dim(const char **p, int64_t *out)
{
  int64_t v = 0;
  skip_spaces(p);
  if (!isdigit((unsigned char)**p))
    return -1;
  while (isdigit((unsigned char)**p)) {
    int digit = *(*p)++ - '0';
    if (v > (INT64_MAX - digit) / 10)
      return -1;
    v = v * 10 + digit;
  }
  if (**p == 'L' || **p == 'l')
    ++*p;
  *out = v;
  return 0;
}

/* "(2, 3)", "(3,)" or "()". */
static int parse_py_shape(const char *path, const char **p, tensor *t)
{
  t->rank = 0;
  if (!accept_char(p, '('))
    return error_at(path, "malformed 'shape' in .npy header");
  while (!accept_char(p, ')')) { /* also ends after a trailing comma */
    if (t->rank == MAX_RANK)
      return error_at(path, "rank above %d is not supported", MAX_RANK);
    if (parse_py_dim(p, &t->dims[t->rank]))
      return error_at(path, "malformed 'shape' in .npy header");
    ++t->rank;
    if (accept_char(p, ','))
      continue;
    if (!accept_char(p, ')'))
      return error_at(path, "malformed 'shape' in .npy header");
    break;
  }
  return RC_OK;
}

/* descr such as '<f4' or '|u1'. */
static int parse_npy_descr(const char *path, const char **p, tensor *t)
{
  char descr[32];
  const dtype_desc *d;
  char *end;
  unsigned long size;
  if (parse_py_string(p, descr, sizeof descr))
    return error_at(path, "malformed or unsupported 'descr' in .npy header "
                          "(structured dtypes are not supported)");
  if (descr[0] == '>')
    return error_at(path, "big-endian data ('%s') is not supported; save "
                          "with a little-endian dtype", descr);
  if (descr[0] != '<' && descr[0] != '|')
    return error_at(path, "unsupported dtype '%s'", descr);
  errno = 0;
  size = strtoul(descr + 2, &end, 10);
  d = descr[1] && *end == '\0' && errno == 0 && end != descr + 2
          ? dtype_from_npy(descr[1], (size_t)size)
          : NULL;
  if (!d || (descr[0] == '|' && d->size != 1))
    return error_at(path, "unsupported dtype '%s'", descr);
  t->dtype = d->onnx;
  return RC_OK;
}

/* The header is a Python dict literal:
   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } */
static int parse_npy_header(const char *path, const char *text, tensor *t)
{
  const char *p = text;
  int have_descr = 0, have_order = 0, have_shape = 0;
  if (!accept_char(&p, '{'))
    return error_at(path, "malformed .npy header (no '{')");
  while (!accept_char(&p, '}')) {
    char key[32];
    int rc = RC_OK, fortran = 0;
    if (parse_py_string(&p, key, sizeof key) || !accept_char(&p, ':'))
      return error_at(path, "malformed .npy header");
    if (strcmp(key, "descr") == 0) {
      rc = parse_npy_descr(path, &p, t);
      have_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (parse_py_bool(&p, &fortran))
        return error_at(path, "malformed 'fortran_order' in .npy header");
      if (fortran)
        return error_at(path, "fortran_order arrays are not supported; save "
                              "a C-order array (np.ascontiguousarray)");
      have_order = 1;
    } else if (strcmp(key, "shape") == 0) {
      rc = parse_py_shape(path, &p, t);
      have_shape = 1;
    } else {
      return error_at(path, "unexpected key '%s' in .npy header", key);
    }
    if (rc != RC_OK)
      return rc;
    if (accept_char(&p, ','))
      continue; /* numpy writes a trailing comma before the '}' */
    if (!accept_char(&p, '}'))
      return error_at(path, "malformed .npy header");
    break;
  }
  if (!have_descr || !have_order || !have_shape)
    return error_at(path, ".npy header lacks 'descr', 'fortran_order' or "
                          "'shape'");
  return RC_OK;
}

/* Magic, version and header length (sets header_start and header_len). */
static int parse_npy_preamble(const char *path, const unsigned char *buf,
                              size_t len, size_t *header_start,
                              size_t *header_len)
{
  if (len < 10 || memcmp(buf, kNpyMagic, sizeof kNpyMagic) != 0)
    return error_at(path, "not a .npy file (bad magic or truncated)");
  if (buf[6] == 1) {
    *header_start = 10;
    *header_len = (size_t)load_le(buf + 8, 2);
  } else if (buf[6] == 2 || buf[6] == 3) {
    if (len < 12)
      return error_at(path, "truncated .npy header");
    *header_start = 12;
    *header_len = (size_t)load_le(buf + 8, 4);
  } else {
    return error_at(path, "unsupported .npy version %d.%d", buf[6], buf[7]);
  }
  if (*header_len > len - *header_start)
    return error_at(path, "truncated .npy header");
  return RC_OK;
}

static int parse_npy(const char *path, const unsigned char *buf, size_t len,
                     tensor *t)
{
  size_t start = 0, header_len = 0, bytes, avail;
  char *text;
  int rc = parse_npy_preamble(path, buf, len, &start, &header_len);
  if (rc != RC_OK)
    return rc;
  /* The header is copied so the parser can rely on a terminating NUL. */
  text = malloc(header_len + 1);
  if (!text)
    return error_at(path, "out of memory");
  memcpy(text, buf + start, header_len);
  text[header_len] = '\0';
  rc = parse_npy_header(path, text, t);
  free(text);
  if (rc != RC_OK)
    return rc;
  if (shape_count(t->dims, t->rank, &t->count) ||
      t->count > SIZE_MAX / tensor_elem_size(t))
    return error_at(path, "shape in .npy header is too large");
  bytes = t->count * tensor_elem_size(t);
  avail = len - start - header_len;
  if (avail != bytes)
    return error_at(path, "%s: header promises %zu data bytes but the file "
                          "has %zu", avail < bytes ? "truncated .npy file"
                                                   : "trailing bytes",
                    bytes, avail);
  if (tensor_alloc(t, path) != RC_OK)
    return RC_ERROR;
  memcpy(t->data, buf + start + header_len, bytes);
  le_to_host(t->data, t->count, tensor_elem_size(t));
  return RC_OK;
}

/* ------------------------------------------------------------------------ */
/* .npy writing                                                              */
/* ------------------------------------------------------------------------ */

/* Python tuple syntax: "(2, 3)", "(3,)", "()". */
static void format_py_shape(char *buf, size_t cap, const tensor *t)
{
  size_t used = (size_t)snprintf(buf, cap, "(");
  int d;
  for (d = 0; d < t->rank && used < cap; ++d)
    used += (size_t)snprintf(buf + used, cap - used, "%s%" PRId64,
                             d ? ", " : "", t->dims[d]);
  if (used < cap)
    snprintf(buf + used, cap - used, t->rank == 1 ? ",)" : ")");
}

/* Version 1.0 header, padded with spaces to a multiple of 64 like numpy. */
static int write_npy(const char *path, const tensor *t)
{
  const dtype_desc *d = dtype_lookup(t->dtype);
  char shape[SHAPE_TEXT_MAX], header[SHAPE_TEXT_MAX + 128];
  size_t n, total;
  FILE *f;
  format_py_shape(shape, sizeof shape, t);
  n = (size_t)snprintf(header, sizeof header,
                       "{'descr': '%c%c%zu', 'fortran_order': False, "
                       "'shape': %s, }",
                       d->size == 1 ? '|' : '<', d->npy_kind ? d->npy_kind : 'u',
                       d->size, shape);
  total = (10 + n + 1 + 63) / 64 * 64; /* preamble + dict + '\n' */
  while (10 + n + 1 < total)
    header[n++] = ' ';
  header[n++] = '\n';
  f = fopen(path, "wb");
  if (!f)
    return error_at(path, "cannot create: %s", strerror(errno));
  fwrite(kNpyMagic, 1, sizeof kNpyMagic, f);
  fputc(1, f);
  fputc(0, f);
  fputc((int)(n & 0xff), f);
  fputc((int)(n >> 8), f);
  fwrite(header, 1, n, f);
  fwrite_le(f, t->data, t->count, d->size);
  return close_written(f, path);
}

/* ------------------------------------------------------------------------ */
/* Protobuf wire format (just enough for onnx.TensorProto)                   */
/* ------------------------------------------------------------------------ */

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2, PB_FIXED32 = 5 };

typedef struct pb_cursor {
  const unsigned char *p, *end;
} pb_cursor;

typedef struct pb_field {
  uint32_t number;
  int wire;
  uint64_t value;             /* PB_VARINT, PB_FIXED64, PB_FIXED32 */
  const unsigned char *bytes; /* PB_LEN payload */
  size_t len;
} pb_field;

static int pb_varint(pb_cursor *c, uint64_t *out)
{
  uint64_t v = 0;
  int shift;
  for (shift = 0; shift < 64; shift += 7) {
    unsigned char b;
    if (c->p >= c->end)
      return -1;
    b = *c->p++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return 0;
    }
  }
  return -1; /* longer than 10 bytes */
}

static int pb_fixed(pb_cursor *c, int nbytes, uint64_t *out)
{
  if ((size_t)(c->end - c->p) < (size_t)nbytes)
    return -1;
  *out = load_le(c->p, nbytes);
  c->p += nbytes;
  return 0;
}

/* One scalar of the given wire type. */
static int pb_scalar(pb_cursor *c, int wire, uint64_t *out)
{
  switch (wire) {
  case PB_VARINT: return pb_varint(c, out);
  case PB_FIXED32: return pb_fixed(c, 4, out);
  case PB_FIXED64: return pb_fixed(c, 8, out);
  default: return -1;
  }
}

/* Reads a key and its whole value, so unknown fields are skipped simply by
   ignoring the result. Groups (wire types 3/4) are long obsolete and are
   treated as malformed input. */
static int pb_next_field(pb_cursor *c, pb_field *f)
{
  uint64_t key, len;
  if (pb_varint(c, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff)
    return -1;
  f->number = (uint32_t)(key >> 3);
  f->wire = (int)(key & 7);
  if (f->wire != PB_LEN)
    return pb_scalar(c, f->wire, &f->value);
  if (pb_varint(c, &len) || len > (uint64_t)(c->end - c->p))
    return -1;
  f->bytes = c->p;
  f->len = (size_t)len;
  c->p += f->len;
  return 0;
}

static void pb_put_varint(FILE *f, uint64_t v)
{
  while (v >= 0x80) {
    fputc((int)((v & 0x7f) | 0x80), f);
    v >>= 7;
  }
  fputc((int)v, f);
}

static void pb_put_key(FILE *f, uint32_t number, int wire)
{
  pb_put_varint(f, ((uint64_t)number << 3) | (uint64_t)wire);
}

/* ------------------------------------------------------------------------ */
/* onnx.TensorProto reading                                                  */
/* ------------------------------------------------------------------------ */

enum {
  TP_DIMS = 1, TP_DATA_TYPE = 2, TP_SEGMENT = 3, TP_FLOAT_DATA = 4,
  TP_INT32_DATA = 5, TP_STRING_DATA = 6, TP_INT64_DATA = 7, TP_NAME = 8,
  TP_RAW_DATA = 9, TP_DOUBLE_DATA = 10, TP_UINT64_DATA = 11,
  TP_DATA_LOCATION = 14
};
enum { TP_LOCATION_EXTERNAL = 1 };

/* What the first pass over a TensorProto found. */
typedef struct tp_scan {
  int have_dtype;
  int have_raw;
  const unsigned char *raw;
  size_t raw_len;
  uint32_t typed_field; /* the one typed-data field used, 0 if none */
  size_t typed_count;
} tp_scan;

static const char *tp_field_name(uint32_t field)
{
  switch (field) {
  case TP_FLOAT_DATA: return "float_data";
  case TP_INT32_DATA: return "int32_data";
  case TP_INT64_DATA: return "int64_data";
  case TP_DOUBLE_DATA: return "double_data";
  case TP_UINT64_DATA: return "uint64_data";
  default: return "?";
  }
}

/* Wire type of one element of a typed-data field; -1 if not one. */
static int tp_element_wire(uint32_t field)
{
  switch (field) {
  case TP_FLOAT_DATA: return PB_FIXED32;
  case TP_INT32_DATA: case TP_INT64_DATA: case TP_UINT64_DATA: return PB_VARINT;
  case TP_DOUBLE_DATA: return PB_FIXED64;
  default: return -1;
  }
}

/* The typed-data field ONNX uses for a dtype (see onnx.proto). */
static uint32_t tp_field_for_dtype(int dtype)
{
  switch (dtype) {
  case DT_FLOAT: return TP_FLOAT_DATA;
  case DT_INT64: return TP_INT64_DATA;
  case DT_DOUBLE: return TP_DOUBLE_DATA;
  case DT_UINT32: case DT_UINT64: return TP_UINT64_DATA;
  default: return TP_INT32_DATA; /* int32 and narrower, bool, (b)float16 bits */
  }
}

/* Stores the low bytes of v as element i. This one rule covers every typed
   field: float bits from fixed32, double bits from fixed64, and integers
   whose two's complement low bytes are the narrower value. */
static void store_element_bits(tensor *t, size_t i, uint64_t v)
{
  unsigned char *dst = (unsigned char *)t->data + i * tensor_elem_size(t);
  if (t->dtype == DT_BOOL)
    v = v != 0;
  switch (tensor_elem_size(t)) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
  default: memcpy(dst, &v, 8); break;
  }
}

/* Visits the elements of one occurrence of a repeated numeric field, packed
   or not, advancing *index. With t == NULL it only counts (first pass). */
static int pb_scalars(const pb_field *f, int elem_wire, tensor *t,
                      size_t *index)
{
  pb_cursor c;
  uint64_t v;
  if (f->wire == elem_wire) {
    if (t)
      store_element_bits(t, *index, f->value);
    ++*index;
    return 0;
  }
  if (f->wire != PB_LEN)
    return -1;
  c.p = f->bytes;
  c.end = f->bytes + f->len;
  while (c.p < c.end) {
    if (pb_scalar(&c, elem_wire, &v))
      return -1;
    if (t)
      store_element_bits(t, *index, v);
    ++*index;
  }
  return 0;
}

static int tp_add_dim(const char *path, tensor *t, uint64_t dim)
{
  if (t->rank == MAX_RANK)
    return error_at(path, "rank above %d is not supported", MAX_RANK);
  if (dim > INT64_MAX)
    return error_at(path, "negative dimension in dims");
  t->dims[t->rank++] = (int64_t)dim;
  return RC_OK;
}

/* dims may be unpacked (one varint per field) or packed. */
static int tp_read_dims(const char *path, const pb_field *f, tensor *t)
{
  pb_cursor c;
  uint64_t dim;
  if (f->wire == PB_VARINT)
    return tp_add_dim(path, t, f->value);
  if (f->wire != PB_LEN)
    return error_at(path, "malformed TensorProto: bad wire type for dims");
  c.p = f->bytes;
  c.end = f->bytes + f->len;
  while (c.p < c.end) {
    if (pb_varint(&c, &dim))
      return error_at(path, "malformed TensorProto: corrupt packed dims");
    if (tp_add_dim(path, t, dim) != RC_OK)
      return RC_ERROR;
  }
  return RC_OK;
}

static int tp_read_typed(const char *path, const pb_field *f, tp_scan *s)
{
  if (s->typed_field && s->typed_field != f->number)
    return error_at(path, "TensorProto has both %s and %s",
                    tp_field_name(s->typed_field), tp_field_name(f->number));
  s->typed_field = f->number;
  if (pb_scalars(f, tp_element_wire(f->number), NULL, &s->typed_count))
    return error_at(path, "malformed TensorProto: corrupt %s",
                    tp_field_name(f->number));
  return RC_OK;
}

/* First pass, one field: header fields into t, data fields located in s. */
static int tp_scan_field(const char *path, const pb_field *f, tensor *t,
                         tp_scan *s)
{
  int want_wire = -1;
  switch (f->number) {
  case TP_DATA_TYPE: case TP_DATA_LOCATION: want_wire = PB_VARINT; break;
  case TP_NAME: case TP_RAW_DATA: want_wire = PB_LEN; break;
  default: break;
  }
  if (want_wire >= 0 && f->wire != want_wire)
    return error_at(path, "malformed TensorProto: field %u has wire type %d",
                    (unsigned)f->number, f->wire);
  switch (f->number) {
  case TP_DIMS:
    return tp_read_dims(path, f, t);
  case TP_DATA_TYPE:
    t->dtype = f->value <= INT_MAX ? (int)f->value : -1;
    s->have_dtype = 1;
    return RC_OK;
  case TP_SEGMENT:
    return error_at(path, "segmented TensorProto is not supported");
  case TP_STRING_DATA:
    return error_at(path, "string tensors (string_data) are not supported");
  case TP_NAME:
    free(t->name);
    t->name = alloc_zeroed(f->len + 1, 1);
    if (!t->name)
      return RC_ERROR;
    memcpy(t->name, f->bytes, f->len);
    return RC_OK;
  case TP_RAW_DATA:
    s->have_raw = 1;
    s->raw = f->bytes;
    s->raw_len = f->len;
    return RC_OK;
  case TP_DATA_LOCATION:
    if (f->value == TP_LOCATION_EXTERNAL)
      return error_at(path, "tensor data is stored externally "
                            "(data_location EXTERNAL), which is not "
                            "supported");
    return RC_OK;
  case TP_FLOAT_DATA: case TP_INT32_DATA: case TP_INT64_DATA:
  case TP_DOUBLE_DATA: case TP_UINT64_DATA:
    return tp_read_typed(path, f, s);
  default:
    return RC_OK; /* doc_string, external_data, metadata, future fields */
  }
}

static int tp_scan_message(const char *path, const unsigned char *buf,
                           size_t len, tensor *t, tp_scan *s)
{
  pb_cursor c;
  pb_field f;
  c.p = buf;
  c.end = buf + len;
  while (c.p < c.end) {
    const unsigned char *at = c.p;
    int rc;
    if (pb_next_field(&c, &f))
      return error_at(path, "malformed TensorProto (truncated or corrupt "
                            "protobuf at byte %zu)", (size_t)(at - buf));
    rc = tp_scan_field(path, &f, t, s);
    if (rc != RC_OK)
      return rc;
  }
  return RC_OK;
}

/* Second pass: decode the typed-data field into the allocated tensor. The
   first pass validated the message, so this cannot fail. */
static void tp_fill_typed(const unsigned char *buf, size_t len,
                          uint32_t field, tensor *t)
{
  pb_cursor c;
  pb_field f;
  size_t index = 0;
  c.p = buf;
  c.end = buf + len;
  while (c.p < c.end && pb_next_field(&c, &f) == 0)
    if (f.number == field)
      pb_scalars(&f, tp_element_wire(field), t, &index);
}

/* Checks the data fields against data_type and dims before anything is
   allocated, so a corrupt file cannot make the runner request a huge
   buffer: afterwards the tensor's size is bounded by the file's. */
static int tp_check_data(const char *path, const tp_scan *s, const tensor *t)
{
  char shape[SHAPE_TEXT_MAX];
  size_t bytes = t->count * tensor_elem_size(t);
  uint32_t want_field = tp_field_for_dtype(t->dtype);
  format_shape(shape, sizeof shape, t->dims, t->rank);
  if (s->have_raw && s->typed_field)
    return error_at(path, "TensorProto has both raw_data and %s",
                    tp_field_name(s->typed_field));
  if (s->have_raw && s->raw_len != bytes)
    return error_at(path, "raw_data has %zu bytes, expected %zu for %s%s",
                    s->raw_len, bytes, dtype_name(t->dtype), shape);
  if (s->have_raw)
    return RC_OK;
  if (!s->typed_field)
    return t->count == 0
               ? RC_OK
               : error_at(path, "TensorProto has no data (truncated?)");
  if (s->typed_field != want_field)
    return error_at(path, "TensorProto stores %s data in %s (expected %s)",
                    dtype_name(t->dtype), tp_field_name(s->typed_field),
                    tp_field_name(want_field));
  if (s->typed_count != t->count)
    return error_at(path, "%s has %zu values, expected %zu for shape %s",
                    tp_field_name(s->typed_field), s->typed_count, t->count,
                    shape);
  return RC_OK;
}

static int parse_tensorproto(const char *path, const unsigned char *buf,
                             size_t len, tensor *t)
{
  tp_scan s;
  int rc;
  memset(&s, 0, sizeof s);
  rc = tp_scan_message(path, buf, len, t, &s);
  if (rc != RC_OK)
    return rc;
  if (!s.have_dtype)
    return error_at(path, "TensorProto has no data_type (not a tensor file, "
                          "or truncated?)");
  if (!dtype_lookup(t->dtype))
    return error_at(path, "unsupported data_type %d", t->dtype);
  if (shape_count(t->dims, t->rank, &t->count) ||
      t->count > SIZE_MAX / tensor_elem_size(t))
    return error_at(path, "dims are too large");
  rc = tp_check_data(path, &s, t);
  if (rc == RC_OK)
    rc = tensor_alloc(t, path);
  if (rc != RC_OK)
    return rc;
  if (s.have_raw) {
    memcpy(t->data, s.raw, s.raw_len);
    le_to_host(t->data, t->count, tensor_elem_size(t));
  } else if (s.typed_field) {
    tp_fill_typed(buf, len, s.typed_field, t);
  }
  return RC_OK;
}

/* ------------------------------------------------------------------------ */
/* onnx.TensorProto writing                                                  */
/* ------------------------------------------------------------------------ */

static int write_tensorproto(const char *path, const tensor *t,
                             const char *name)
{
  size_t bytes = t->count * tensor_elem_size(t);
  FILE *f = fopen(path, "wb");
  int d;
  if (!f)
    return error_at(path, "cannot create: %s", strerror(errno));
  /* Fields in field-number order, as protobuf serializers emit them. */
  for (d = 0; d < t->rank; ++d) {
    pb_put_key(f, TP_DIMS, PB_VARINT);
    pb_put_varint(f, (uint64_t)t->dims[d]);
  }
  pb_put_key(f, TP_DATA_TYPE, PB_VARINT);
  pb_put_varint(f, (uint64_t)t->dtype);
  if (name) {
    pb_put_key(f, TP_NAME, PB_LEN);
    pb_put_varint(f, strlen(name));
    fwrite(name, 1, strlen(name), f);
  }
  pb_put_key(f, TP_RAW_DATA, PB_LEN);
  pb_put_varint(f, bytes);
  fwrite_le(f, t->data, t->count, tensor_elem_size(t));
  return close_written(f, path);
}

/* ------------------------------------------------------------------------ */
/* Tensor files                                                              */
/* ------------------------------------------------------------------------ */

/* .npy or .pb by extension; otherwise by the .npy magic. */
static int load_tensor(const char *path, tensor *t)
{
  unsigned char *buf = NULL;
  size_t len = 0;
  int is_npy, rc;
  memset(t, 0, sizeof *t);
  rc = read_file(path, &buf, &len);
  if (rc != RC_OK)
    return rc;
  if (has_suffix(path, ".npy"))
    is_npy = 1;
  else if (has_suffix(path, ".pb"))
    is_npy = 0;
  else
    is_npy = len >= sizeof kNpyMagic &&
             memcmp(buf, kNpyMagic, sizeof kNpyMagic) == 0;
  rc = is_npy ? parse_npy(path, buf, len, t)
              : parse_tensorproto(path, buf, len, t);
  free(buf);
  if (rc != RC_OK)
    tensor_free(t);
  return rc;
}

/* DIR/PREFIX_I.pb, or DIR/PREFIX_I.npy when only that exists. A missing file
   is reported by the caller's load as the .pb path. */
static char *dir_tensor_path(const char *dir, const char *prefix, int index)
{
  char *pb = path_join(dir, prefix, index, "pb");
  char *npy;
  if (!pb || file_exists(pb))
    return pb;
  npy = path_join(dir, prefix, index, "npy");
  if (npy && file_exists(npy)) {
    free(pb);
    return npy;
  }
  free(npy);
  return pb;
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct io_kind {
  const char *what; /* "input" or "output" */
  int (*count)(void);
  size_t (*size)(int);
  const onnxq_tensor_info *(*info)(int);
} io_kind;

static const io_kind kInputs = {"input", MODEL_FN(_num_inputs),
                                MODEL_FN(_input_size), MODEL_FN(_input_info)};
static const io_kind kOutputs = {"output", MODEL_FN(_num_outputs),
                                 MODEL_FN(_output_size),
                                 MODEL_FN(_output_info)};

/* Checks that the model's own description of tensor i is consistent, so a
   compiler bug shows up as a clear message rather than a buffer overrun. */
static const onnxq_tensor_info *model_tensor(const io_kind *k, int i)
{
  const onnxq_tensor_info *info = k->info(i);
  size_t count;
  if (!info) {
    error_msg("model ABI: " MODEL_NAME "_%s_info(%d) returned NULL", k->what,
              i);
    return NULL;
  }
  if (!dtype_lookup(info->dtype)) {
    error_msg("model %s %d \"%s\" has unsupported dtype %d", k->what, i,
              info->name ? info->name : "", info->dtype);
    return NULL;
  }
  if (info->rank < 0 || info->rank > MAX_RANK ||
      (info->rank > 0 && !info->shape) ||
      shape_count(info->shape, info->rank, &count) ||
      count != info->num_elements || count != k->size(i)) {
    error_msg("model ABI: %s %d: rank/shape, num_elements (%zu) and "
              MODEL_NAME "_%s_size (%zu) disagree", k->what, i,
              info->num_elements, k->what, k->size(i));
    return NULL;
  }
  return info;
}

static const char *info_name(const onnxq_tensor_info *info)
{
  return info->name ? info->name : "";
}

/* The file shape must equal the model shape, except that one leading 1 may
   be present on either side (a batch of one). */
static int dims_equal(const int64_t *a, int ra, const int64_t *b, int rb)
{
  return ra == rb && (ra == 0 || memcmp(a, b, (size_t)ra * sizeof *a) == 0);
}

static int shape_matches(const onnxq_tensor_info *info, const tensor *t)
{
  const int64_t *want = info->shape;
  int rw = info->rank;
  if (dims_equal(want, rw, t->dims, t->rank))
    return 1;
  if (t->rank == rw + 1 && t->dims[0] == 1)
    return dims_equal(want, rw, t->dims + 1, t->rank - 1);
  if (rw == t->rank + 1 && want[0] == 1)
    return dims_equal(want + 1, rw - 1, t->dims, t->rank);
  return 0;
}

static int check_against_model(const char *path, const io_kind *k, int i,
                               const onnxq_tensor_info *info, tensor *t)
{
  char got[SHAPE_TEXT_MAX], want[SHAPE_TEXT_MAX];
  if (t->dtype == DT_UINT16 && info->dtype == DT_BFLOAT16)
    t->dtype = DT_BFLOAT16; /* the bit patterns, as ONNX's test data has them */
  if (t->dtype != info->dtype)
    return error_at(path, "%s %d \"%s\": dtype is %s, model expects %s",
                    k->what, i, info_name(info), dtype_name(t->dtype),
                    dtype_name(info->dtype));
  if (!shape_matches(info, t))
    return error_at(path, "%s %d \"%s\": shape %s does not match model shape "
                          "%s (only a leading dimension of 1 may be added or "
                          "dropped)", k->what, i, info_name(info),
                    format_shape(got, sizeof got, t->dims, t->rank),
                    format_shape(want, sizeof want, info->shape, info->rank));
  return RC_OK;
}

/* A zeroed tensor with the model's shape; outputs use it too. */
static int tensor_from_info(tensor *t, const onnxq_tensor_info *info)
{
  memset(t, 0, sizeof *t);
  t->dtype = info->dtype;
  t->rank = info->rank;
  if (info->rank > 0)
    memcpy(t->dims, info->shape, (size_t)info->rank * sizeof *info->shape);
  return tensor_alloc(t, MODEL_NAME);
}

static void print_signature(FILE *out, const io_kind *k)
{
  int i, n = k->count();
  for (i = 0; i < n; ++i) {
    const onnxq_tensor_info *info = k->info(i);
    char shape[SHAPE_TEXT_MAX];
    if (!info)
      continue;
    fprintf(out, "  %s %d \"%s\" %s%s\n", k->what, i, info_name(info),
            dtype_name(info->dtype),
            format_shape(shape, sizeof shape, info->shape, info->rank));
  }
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

enum { FMT_DEFAULT, FMT_NPY, FMT_PB };

typedef struct options {
  char **inputs; /* points into argv */
  int num_inputs;
  const char *input_dir;
  const char *outputs_dir;
  int format;
  char **expect; /* points into argv */
  int num_expect;
  const char *expect_dir;
  double rtol, atol;
  int rtol_given, atol_given;
  long repeat;
  int repeat_given;
  double warmup_ms;
  long threads;
  int threads_given;
  int print;
  int no_workspace;
  int help;
} options;

static void print_usage(FILE *out)
{
  fputs(
      "usage: " PROG_NAME " [--inputs FILE... | --input-dir DIR] "
      "[--outputs-dir DIR] [--format npy|pb]\n"
      "       [--expect FILE... | --expect-dir DIR] [--rtol R] [--atol A] "
      "[--repeat N] [--warmup MS] [--threads N] [--print]\n"
      "       [--no-workspace]\n"
      "Runs the compiled model '" MODEL_NAME "'.\n"
      "  --inputs FILE...   one .npy or ONNX TensorProto .pb per input, in "
      "order\n"
      "  --input-dir DIR    DIR/input_<i>.pb (or .npy); without inputs the "
      "model runs on zeros\n"
      "  --outputs-dir DIR  write DIR/output_<i>.npy|.pb (--format; default "
      "pb with --input-dir)\n"
      "  --expect FILE...   compare outputs with these tensors, in order\n"
      "  --expect-dir DIR   compare with DIR/output_<i>.pb (or .npy)\n"
      "  --rtol R --atol A  pass when |got-want| <= atol + rtol*|want| "
      "(default 1e-4, 1e-5;\n"
      "                     integer outputs exact unless given)\n"
      "  --repeat N         run N times, print the median time per run\n"
      "  --warmup MS        call the model untimed for MS milliseconds first\n"
      "  --threads N        run " MODEL_NAME "_run_parallel on a pool of N "
      "threads\n"
      "  --print            print the first 20 values and the argmax of each "
      "output\n"
      "  --no-workspace     pass workspace NULL instead of a malloc'd "
      "buffer\n"
      "Dtypes must match the model; shapes too, but a leading dimension of 1 "
      "may be\n"
      "added or dropped. Exit status: 0 ok, 1 output mismatch, 2 usage, file "
      "or model error.\n"
      "Model:\n",
      out);
  print_signature(out, &kInputs);
  print_signature(out, &kOutputs);
}

static int PRINTF_LIKE(1, 2) usage_error(const char *fmt, ...)
{
  va_list ap;
  fflush(stdout);
  fputs(PROG_NAME ": error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs(" (see --help)\n", stderr);
  return RC_ERROR;
}

/* Counts the FILE... arguments after argv[i] (up to the next --option). */
static int count_file_args(int argc, char **argv, int i)
{
  int n = 0;
  while (i + 1 + n < argc && strncmp(argv[i + 1 + n], "--", 2) != 0)
    ++n;
  return n;
}

static int parse_tolerance(const char *opt, const char *arg, double *out)
{
  char *end;
  double v = strtod(arg, &end);
  if (end == arg || *end != '\0' || !(v >= 0) || isinf(v))
    return usage_error("%s needs a non-negative number", opt);
  *out = v;
  return RC_OK;
}

static int parse_repeat(const char *arg, long *out)
{
  char *end;
  long v = strtol(arg, &end, 10);
  if (end == arg || *end != '\0' || v < 1 || v > 100000000L)
    return usage_error("--repeat needs a count between 1 and 1e8, got '%s'",
                       arg);
  *out = v;
  return RC_OK;
}

static int parse_threads(const char *arg, long *out)
{
  char *end;
  long v = strtol(arg, &end, 10);
  if (end == arg || *end != '\0' || v < 1 || v > 1024)
    return usage_error("--threads needs a count between 1 and 1024, got '%s'",
                       arg);
  *out = v;
  return RC_OK;
}

static int is_value_option(const char *opt)
{
  static const char *const kValueOptions[] = {
      "--input-dir", "--outputs-dir", "--expect-dir", "--format",
      "--rtol",      "--atol",        "--repeat",     "--threads",
      "--warmup"};
  size_t i;
  for (i = 0; i < sizeof kValueOptions / sizeof kValueOptions[0]; ++i)
    if (strcmp(opt, kValueOptions[i]) == 0)
      return 1;
  return 0;
}

/* One option at argv[*i]; advances *i past its arguments. */
static int parse_option(int argc, char **argv, int *i, options *o)
{
  const char *opt = argv[*i];
  const char *arg = *i + 1 < argc ? argv[*i + 1] : NULL;
  int rc = RC_OK;
  if (strcmp(opt, "--inputs") == 0 || strcmp(opt, "--expect") == 0) {
    int n = count_file_args(argc, argv, *i);
    if (n == 0)
      return usage_error("%s needs at least one file", opt);
    if (strcmp(opt, "--inputs") == 0) {
      o->inputs = argv + *i + 1;
      o->num_inputs = n;
    } else {
      o->expect = argv + *i + 1;
      o->num_expect = n;
    }
    *i += n;
    return RC_OK;
  }
  if (strcmp(opt, "--print") == 0) {
    o->print = 1;
    return RC_OK;
  }
  if (strcmp(opt, "--no-workspace") == 0) {
    o->no_workspace = 1;
    return RC_OK;
  }
  if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
    o->help = 1;
    return RC_OK;
  }
  if (!is_value_option(opt))
    return usage_error("unknown option '%s'", opt);
  if (!arg)
    return usage_error("%s needs an argument", opt);
  if (strcmp(opt, "--input-dir") == 0)
    o->input_dir = arg;
  else if (strcmp(opt, "--outputs-dir") == 0)
    o->outputs_dir = arg;
  else if (strcmp(opt, "--expect-dir") == 0)
    o->expect_dir = arg;
  else if (strcmp(opt, "--format") == 0) {
    if (strcmp(arg, "npy") != 0 && strcmp(arg, "pb") != 0)
      return usage_error("--format must be npy or pb, not '%s'", arg);
    o->format = arg[0] == 'n' ? FMT_NPY : FMT_PB;
  } else if (strcmp(opt, "--rtol") == 0) {
    rc = parse_tolerance(opt, arg, &o->rtol);
    o->rtol_given = 1;
  } else if (strcmp(opt, "--atol") == 0) {
    rc = parse_tolerance(opt, arg, &o->atol);
    o->atol_given = 1;
  } else if (strcmp(opt, "--threads") == 0) {
    rc = parse_threads(arg, &o->threads);
    o->threads_given = 1;
  } else if (strcmp(opt, "--warmup") == 0) {
    rc = parse_tolerance(opt, arg, &o->warmup_ms);
  } else { /* --repeat */
    rc = parse_repeat(arg, &o->repeat);
    o->repeat_given = 1;
  }
  ++*i;
  return rc;
}

static int parse_options(int argc, char **argv, options *o)
{
  int i;
  memset(o, 0, sizeof *o);
  o->rtol = DEFAULT_RTOL;
  o->atol = DEFAULT_ATOL;
  o->repeat = 1;
  for (i = 1; i < argc; ++i) {
    int rc = parse_option(argc, argv, &i, o);
    if (rc != RC_OK)
      return rc;
  }
  if (o->inputs && o->input_dir)
    return usage_error("use either --inputs or --input-dir");
  if (o->expect && o->expect_dir)
    return usage_error("use either --expect or --expect-dir");
  if (o->format != FMT_DEFAULT && !o->outputs_dir)
    return usage_error("--format only applies with --outputs-dir");
  return RC_OK;
}

/* ------------------------------------------------------------------------ */
/* Loading inputs and expected outputs                                       */
/* ------------------------------------------------------------------------ */

static int load_checked(const char *path, const io_kind *k, int i,
                        tensor *t)
{
  const onnxq_tensor_info *info = model_tensor(k, i);
  int rc;
  if (!info)
    return RC_ERROR;
  rc = load_tensor(path, t);
  if (rc == RC_OK)
    rc = check_against_model(path, k, i, info, t);
  return rc;
}

static int load_file_list(char **files, int num_files, const io_kind *k,
                          tensor *out)
{
  int i, rc = RC_OK, n = k->count();
  if (num_files != n) {
    error_msg("model " MODEL_NAME " has %d %ss but %d file%s given", n,
              k->what, num_files, num_files == 1 ? " was" : "s were");
    print_signature(stderr, k);
    return RC_ERROR;
  }
  for (i = 0; i < n && rc == RC_OK; ++i)
    rc = load_checked(files[i], k, i, &out[i]);
  return rc;
}

/* DIR/input_<i>.pb for every input, and no file past the last one (it
   would mean the folder belongs to a different model). */
static int load_dir(const char *dir, const char *prefix, const io_kind *k,
                    tensor *out)
{
  int i, rc = RC_OK, n = k->count();
  char *path;
  for (i = 0; i < n && rc == RC_OK; ++i) {
    path = dir_tensor_path(dir, prefix, i);
    rc = path ? load_checked(path, k, i, &out[i]) : RC_ERROR;
    free(path);
  }
  if (rc != RC_OK)
    return rc;
  path = dir_tensor_path(dir, prefix, n);
  if (path && file_exists(path))
    rc = error_at(path, "exists, but model " MODEL_NAME " has only %d %ss",
                  n, k->what);
  free(path);
  return rc;
}

static int load_zero_inputs(tensor *in)
{
  int i, n = kInputs.count();
  fprintf(stderr, PROG_NAME ": note: no inputs given, running on all-zero "
                  "inputs\n");
  for (i = 0; i < n; ++i) {
    const onnxq_tensor_info *info = model_tensor(&kInputs, i);
    if (!info || tensor_from_info(&in[i], info) != RC_OK)
      return RC_ERROR;
  }
  return RC_OK;
}

static int load_inputs(const options *o, tensor *in)
{
  if (o->inputs)
    return load_file_list(o->inputs, o->num_inputs, &kInputs, in);
  if (o->input_dir)
    return load_dir(o->input_dir, "input", &kInputs, in);
  return load_zero_inputs(in);
}

static int load_expected(const options *o, tensor *expected)
{
  if (o->expect)
    return load_file_list(o->expect, o->num_expect, &kOutputs, expected);
  return load_dir(o->expect_dir, "output", &kOutputs, expected);
}

/* Output buffers are filled with a byte pattern rather than zeros so that
   an output the model forgets to write does not pass by accident. */
static int alloc_outputs(tensor *out)
{
  int i, n = kOutputs.count();
  for (i = 0; i < n; ++i) {
    const onnxq_tensor_info *info = model_tensor(&kOutputs, i);
    if (!info || tensor_from_info(&out[i], info) != RC_OK)
      return RC_ERROR;
    memset(out[i].data, 0xA5, out[i].count * tensor_elem_size(&out[i]));
  }
  return RC_OK;
}

/* ------------------------------------------------------------------------ */
/* Running and timing                                                        */
/* ------------------------------------------------------------------------ */

#if defined(CLOCK_MONOTONIC)
#define CLOCK_KIND "wall clock"
static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
#else
/* Strict C99 has no wall clock finer than a second; clock() is CPU time,
   which matches wall time for a single-threaded model. */
#define CLOCK_KIND "CPU time, clock()"
static double now_ms(void)
{
  clock_t now = clock();
  return (double)now * 1e3 / (double)CLOCKS_PER_SEC;
}
#endif

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void print_timing(double *ms, long n)
{
  qsort(ms, (size_t)n, sizeof *ms, compare_doubles);
  printf("timing: %ld run%s, median %.4f ms/run (min %.4f, max %.4f; %s)\n",
         n, n == 1 ? "" : "s",
         n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, ms[0],
         ms[n - 1], CLOCK_KIND);
}

/* One call of NAME_run (or, with a pool, NAME_run_parallel). */
static int run_once(const void **in_ptrs, void **out_ptrs, void *ws,
                    onnxq_pool *pool)
{
  int status = pool ? MODEL_FN(_run_parallel)(in_ptrs, out_ptrs, ws,
                                              onnxq_pool_parallel_for, pool,
                                              onnxq_pool_threads(pool))
                    : MODEL_FN(_run)(in_ptrs, out_ptrs, ws);
  if (status != 0)
    return error_msg(MODEL_NAME "_run%s returned %d", pool ? "_parallel" : "",
                     status);
  return RC_OK;
}

/* Calls the model untimed for o->warmup_ms (--warmup), then o->repeat
   times on prepared pointer arrays. */
static int run_repeatedly(const options *o, const void **in_ptrs,
                          void **out_ptrs, void *ws, onnxq_pool *pool,
                          double *ms)
{
  long r;
  if (o->warmup_ms > 0) {
    double start = now_ms();
    do {
      int rc = run_once(in_ptrs, out_ptrs, ws, pool);
      if (rc != RC_OK)
        return rc;
    } while (now_ms() - start < o->warmup_ms);
  }
  for (r = 0; r < o->repeat; ++r) {
    double start = now_ms();
    int rc = run_once(in_ptrs, out_ptrs, ws, pool);
    ms[r] = now_ms() - start;
    if (rc != RC_OK)
      return rc;
  }
  if (o->repeat_given)
    print_timing(ms, o->repeat);
  return RC_OK;
}

static int run_model(const options *o, tensor *in, tensor *out)
{
  int i, rc = RC_ERROR, n_in = kInputs.count(), n_out = kOutputs.count();
  size_t ws_size = o->threads_given
                       ? MODEL_FN(_workspace_size_parallel)((int)o->threads)
                       : MODEL_FN(_workspace_size)();
  onnxq_pool *pool = o->threads_given ? onnxq_pool_create((int)o->threads) : NULL;
  const void **in_ptrs = alloc_zeroed((size_t)n_in, sizeof *in_ptrs);
  void **out_ptrs = alloc_zeroed((size_t)n_out, sizeof *out_ptrs);
  double *ms = alloc_zeroed((size_t)o->repeat, sizeof *ms);
  /* A caller-owned workspace exercises the model's external-buffer path. */
  void *ws = o->no_workspace || ws_size == 0 ? NULL : malloc(ws_size);
  /* Filled with a byte pattern, as the outputs are: a model that reads
     workspace it never wrote (padding it left unfilled) does not pass by
     accident on fresh zeroed pages. 0x7F reads as 127 or as about 3.4e38. */
  if (ws)
    memset(ws, 0x7F, ws_size);
  if (!ws && !o->no_workspace && ws_size)
    error_msg("out of memory (workspace of %zu bytes)", ws_size);
  else if (o->threads_given && !pool)
    error_msg("cannot start a pool of %ld threads", o->threads);
  else if (in_ptrs && out_ptrs && ms) {
    for (i = 0; i < n_in; ++i)
      in_ptrs[i] = in[i].data;
    for (i = 0; i < n_out; ++i)
      out_ptrs[i] = out[i].data;
    rc = run_repeatedly(o, in_ptrs, out_ptrs, ws, pool, ms);
  }
  onnxq_pool_destroy(pool);
  free(ws);
  free(ms);
  free(out_ptrs);
  free((void *)in_ptrs);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Printing, writing and comparing outputs                                   */
/* ------------------------------------------------------------------------ */

/* First maximum, ignoring NaN (0 when every element is NaN). */
static size_t argmax(const tensor *t)
{
  size_t i, best = 0;
  double best_v = -INFINITY;
  int found = 0;
  for (i = 0; i < t->count; ++i) {
    double v = element_as_double(t, i);
    if (!isnan(v) && (!found || v > best_v)) {
      best = i;
      best_v = v;
      found = 1;
    }
  }
  return best;
}

static void print_output(int i, const tensor *t)
{
  char shape[SHAPE_TEXT_MAX], value[64], index[SHAPE_TEXT_MAX];
  size_t k, best;
  printf("output %d \"%s\" %s%s:", i, info_name(kOutputs.info(i)),
         dtype_name(t->dtype),
         format_shape(shape, sizeof shape, t->dims, t->rank));
  for (k = 0; k < t->count && k < PRINT_LIMIT; ++k)
    printf(" %s", format_element(value, sizeof value, t, k));
  if (t->count > PRINT_LIMIT)
    printf(" ... (%zu values)", t->count);
  printf("\n");
  if (t->count == 0)
    return;
  best = argmax(t);
  printf("  argmax %zu %s = %s\n", best,
         format_index(index, sizeof index, t, best),
         format_element(value, sizeof value, t, best));
}

static int write_outputs(const options *o, const tensor *out)
{
  int i, rc = RC_OK, n = kOutputs.count();
  int format = o->format != FMT_DEFAULT ? o->format
               : o->input_dir           ? FMT_PB
                                        : FMT_NPY;
  for (i = 0; i < n && rc == RC_OK; ++i) {
    char *path = path_join(o->outputs_dir, "output", i,
                           format == FMT_PB ? "pb" : "npy");
    if (!path)
      return RC_ERROR;
    rc = format == FMT_PB
             ? write_tensorproto(path, &out[i], kOutputs.info(i)->name)
             : write_npy(path, &out[i]);
    free(path);
  }
  return rc;
}

typedef struct diff_stats {
  double max_abs, max_rel;
  size_t worst;      /* element index */
  double worst_diff; /* its absolute difference */
  int worst_failed;  /* whether worst is a mismatch */
  size_t mismatches;
} diff_stats;

/* |a - b| with NaN == NaN and equal infinities as 0; a NaN against a number
   counts as an infinite difference so it can never pass. */
static double element_diff(double a, double b)
{
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b) ? 0 : INFINITY;
  if (a == b)
    return 0;
  return fabs(a - b);
}

static void compare_elements(const tensor *got, const tensor *want,
                             double atol, double rtol, diff_stats *s)
{
  size_t i;
  memset(s, 0, sizeof *s);
  for (i = 0; i < got->count; ++i) {
    double a = element_as_double(got, i), b = element_as_double(want, i);
    double diff = element_diff(a, b);
    double rel = diff == 0 ? 0 : b == 0 ? INFINITY : diff / fabs(b);
    /* An infinite diff (NaN or infinity involved) always fails. */
    int failed = diff != 0 && (isinf(diff) || diff > atol + rtol * fabs(b));
    s->mismatches += (size_t)failed;
    if (rel > s->max_rel)
      s->max_rel = rel;
    if (diff > s->max_abs)
      s->max_abs = diff;
    /* Worst = largest diff among mismatches, or among all if none fail. */
    if ((failed && !s->worst_failed) ||
        (failed == s->worst_failed && diff > s->worst_diff)) {
      s->worst = i;
      s->worst_diff = diff;
      s->worst_failed = failed;
    }
  }
}

/* Quantized (integer) results are expected bit-exact unless asked. */
static void tolerances(const options *o, int dtype, double *atol,
                       double *rtol)
{
  int is_float = dtype_is_float(dtype);
  *atol = is_float || o->atol_given ? o->atol : 0;
  *rtol = is_float || o->rtol_given ? o->rtol : 0;
}

static int compare_output(const options *o, int i, const tensor *got,
                          const tensor *want)
{
  char shape[SHAPE_TEXT_MAX], index[SHAPE_TEXT_MAX], a[64], b[64];
  double atol, rtol;
  diff_stats s;
  tolerances(o, got->dtype, &atol, &rtol);
  compare_elements(got, want, atol, rtol, &s);
  printf("output %d \"%s\" %s%s: max_abs_diff %.3g max_rel_diff %.3g",
         i, info_name(kOutputs.info(i)), dtype_name(got->dtype),
         format_shape(shape, sizeof shape, got->dims, got->rank), s.max_abs,
         s.max_rel);
  if (got->count > 0)
    printf(" worst %s (got %s, expected %s)",
           format_index(index, sizeof index, got, s.worst),
           format_element(a, sizeof a, got, s.worst),
           format_element(b, sizeof b, want, s.worst));
  printf(" mismatches %zu/%zu (atol %g rtol %g) %s\n", s.mismatches,
         got->count, atol, rtol, s.mismatches ? "FAIL" : "PASS");
  return s.mismatches ? RC_MISMATCH : RC_OK;
}

static int compare_outputs(const options *o, const tensor *out,
                           const tensor *expected)
{
  int i, failed = 0, n = kOutputs.count();
  for (i = 0; i < n; ++i)
    failed += compare_output(o, i, &out[i], &expected[i]) != RC_OK;
  printf("%s: %d of %d outputs match\n", failed ? "FAIL" : "PASS",
         n - failed, n);
  return failed ? RC_MISMATCH : RC_OK;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void free_tensors(tensor *t, int n)
{
  int i;
  for (i = 0; t && i < n; ++i)
    tensor_free(&t[i]);
  free(t);
}

int main(int argc, char **argv)
{
  options o;
  int n_in = kInputs.count(), n_out = kOutputs.count();
  int has_expect, rc = parse_options(argc, argv, &o);
  tensor *in, *out, *expected = NULL;
  if (rc != RC_OK)
    return rc;
  if (o.help) {
    print_usage(stdout);
    return RC_OK;
  }
  if (n_in < 0 || n_out < 0)
    return error_msg("model ABI: negative input/output count");
  has_expect = o.expect || o.expect_dir;
  in = alloc_zeroed((size_t)n_in, sizeof *in);
  out = alloc_zeroed((size_t)n_out, sizeof *out);
  if (has_expect)
    expected = alloc_zeroed((size_t)n_out, sizeof *expected);
  rc = in && out && (expected || !has_expect) ? RC_OK : RC_ERROR;
  /* Expected files are read before running so that a bad file fails fast. */
  if (rc == RC_OK)
    rc = load_inputs(&o, in);
  if (rc == RC_OK && has_expect)
    rc = load_expected(&o, expected);
  if (rc == RC_OK)
    rc = alloc_outputs(out);
  if (rc == RC_OK)
    rc = run_model(&o, in, out);
  if (rc == RC_OK && o.print) {
    int i;
    for (i = 0; i < n_out; ++i)
      print_output(i, &out[i]);
  }
  if (rc == RC_OK && o.outputs_dir)
    rc = write_outputs(&o, out);
  if (rc == RC_OK && has_expect)
    rc = compare_outputs(&o, out, expected);
  free_tensors(in, n_in);
  free_tensors(out, n_out);
  free_tensors(expected, n_out);
  return rc;
}
