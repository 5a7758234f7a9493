"""Parse an .onnxtext model with onnx's own parser and save it as binary .onnx.

Usage: onnxtext_to_onnx.py MODEL.onnxtext OUT.onnx
"""
import sys

import onnx
import onnx.parser

model = onnx.parser.parse_model(open(sys.argv[1]).read())
onnx.checker.check_model(model)
onnx.save(model, sys.argv[2])
