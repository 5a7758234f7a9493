#!/usr/bin/env bash
# README command 1: set everything up and run the main job on the built-in
# default model (a small CNN trained here on scikit-learn's digits).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_packages
setup_venv
setup_ortq_venv
build

MODELS="$BUILD/models"
log "Default model: training a digits CNN (scikit-learn data, held-out split)"
"$VENV/bin/python" "$ROOT/utils/make_default_model.py" --out-dir "$MODELS"

log "Main job: onnx-quant-opt digits_cnn.onnx"
"$VENV/bin/python" "$ROOT/utils/main_job.py" --tool "$BUILD/bin/onnx-quant-opt" \
  --model "$MODELS/digits_cnn.onnx" \
  --images "$MODELS/digits_test_images.npy" \
  --labels "$MODELS/digits_test_labels.npy" --out-dir "$MODELS" \
  --calibration "$MODELS/digits_calibration" \
  --runner "$ROOT/tools/onnx-quant-runner/runner.c"
