#!/bin/sh
# pending.sh BUILD_DIR: what the next build of a CMake build directory would
# do, from a dry run (ninja -n, or make -n for Unix Makefiles, where
# `make -q` is always "out of date" because CMake's targets are phony).
# A dry run cannot see past a pending CMake re-run: Ninja then shows only
# "cmake", and make shows nothing of it.
# Prints "up to date", or one line per pending step:
#   model <file.o>   an onnx-quant-opt compile     compile   a C/C++ compile
#   link             a link or archive             cmake     a CMake re-run
#                                                             (Ninja only)
set -e
dir="$1"
if [ -f "$dir/build.ninja" ]; then
  out=$(ninja -C "$dir" -n)
  printf '%s\n' "$out" | sed -n \
    -e 's/.*Compiling ONNX model .* to \([A-Za-z0-9_]*\.o\)$/model \1/p' \
    -e 's/.*Building C\{1,2\}X\{0,2\} object.*/compile/p' \
    -e 's/.*Linking .*/link/p' \
    -e 's/.*Re-running CMake.*/cmake/p' > "$dir/pending.txt"
else
  out=$(make -C "$dir" -n 2>&1)
  printf '%s\n' "$out" | sed -n \
    -e 's/.*--emit=obj .*-o [^ ]*\/\([A-Za-z0-9_]*\.o\) .*/model \1/p' \
    -e 's/.* -c [^ ]*\.c\(pp\)\{0,1\}\( \|$\).*/compile/p' \
    -e 's/.*cmake_link_script.*/link/p' > "$dir/pending.txt"
fi
if grep -q . "$dir/pending.txt"; then
  grep . "$dir/pending.txt" | sort -u
elif [ -f "$dir/build.ninja" ]; then
  echo "up to date"
else
  echo "up to date (as far as make -n can tell)"
fi
