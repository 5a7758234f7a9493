#!/bin/sh
# Stands in for onnx-quant-opt in calibration-data.test, which checks the
# CMake side of CALIBRATION_DATA (the data=DIR option and the dependency
# tracking) on dummy data files and whether or not the compiler has the
# calibrate and quantize passes: appends one line
# to calls.log next to itself, each argument in brackets, then runs the real compiler (path
# in real-tool next to itself) without the --onnx-calibrate/--onnx-quantize
# flags. It does not calibrate anything.
here=$(dirname "$0")
{ printf '[%s] ' "$@"; echo; } >> "$here/calls.log"
real=$(cat "$here/real-tool")
for arg; do
  shift
  case "$arg" in
    --onnx-calibrate*|--onnx-quantize*) ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "$real" "$@"
