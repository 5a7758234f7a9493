#!/usr/bin/env python3
"""Checks that docs/user-guide.md documents every project flag and pass.

  check_user_guide.py --tool onnx-quant-opt --passes-doc build/docs/Passes.md
                      --guide docs/user-guide.md

- every flag under "Compiler options (onnx-quant)" in `--help` appears as
  `--flag`;
- every project pass (onnx-*, onnxq-*, convert-onnx-*) under "Passes:" in
  `--help` is in the generated pass reference (so a new Passes.td was
  registered with add_onnxquant_pass_doc), and appears as `--pass` in the
  guide;
- every project pipeline under "Pass Pipelines:" (not in any Passes.td, so
  not in the generated reference) appears as `--pipeline` in the guide;
- every option of those passes (from the generated reference) and pipelines
  (from `--help`) appears as `option=` in the guide.
Prints one line per item and a summary; exits 1 if anything is missing.
"""
import argparse
import re
import subprocess
import sys

PROJECT_PASS = re.compile(r"^(onnx-|onnxq-|convert-onnx-)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--passes-doc", required=True)
    ap.add_argument("--guide", required=True)
    args = ap.parse_args()

    help_text = subprocess.run([args.tool, "--help"], capture_output=True,
                               text=True, check=True).stdout
    section = help_text.split("Compiler options (onnx-quant):", 1)[1]
    section = section.split("\nCompiler passes", 1)[0]
    flags = sorted(set(re.findall(r"^  --([a-z][a-z0-9-]*)", section, re.M)))
    passes_part, pipelines_part = help_text.split("    Pass Pipelines:", 1)
    passes_part = passes_part.split("    Passes:", 1)[1]
    pipelines_part = re.split(r"^  --", pipelines_part, maxsplit=1, flags=re.M)[0]
    # A name as long as the column runs into its "-" separator.
    help_passes = sorted(set(
        p.rstrip("-")
        for p in re.findall(r"^      --([a-z][a-z0-9-]*)", passes_part, re.M)
        if PROJECT_PASS.match(p)))
    pipelines = {}
    for block in re.split(r"^      --", pipelines_part, flags=re.M)[1:]:
        name = re.match(r"[a-z0-9-]+", block).group(0)
        if PROJECT_PASS.match(name):
            pipelines[name] = re.findall(r"^        --([a-z0-9-]+)=", block, re.M)

    doc = open(args.passes_doc).read()
    doc_passes = re.findall(r"^### `-([a-z0-9-]+)`", doc, re.M)
    options = {}
    for block in re.split(r"^### ", doc, flags=re.M)[1:]:
        name = re.match(r"`-([a-z0-9-]+)`", block).group(1)
        opts = re.search(r"#### Options\s*```(.*?)```", block, re.S)
        # mlir-tblgen pads the names to one column: "-name<spaces> : text".
        options[name] = re.findall(r"^-([a-z0-9-]+) +:", opts.group(1), re.M) if opts else []

    guide = open(args.guide).read()
    missing = 0

    def report(ok, what):
        nonlocal missing
        print(("ok       " if ok else "MISSING  ") + what)
        missing += 0 if ok else 1

    for f in flags:
        report("`--%s" % f in guide, "flag --%s in the user guide" % f)
    for p in help_passes:
        report(p in doc_passes, "pass %s in %s" % (p, args.passes_doc))
    for p in sorted(set(doc_passes) | set(help_passes)):
        report("`--%s`" % p in guide, "pass --%s in the user guide" % p)
        for o in options.get(p, []):
            report("%s=" % o in guide, "option %s of --%s in the user guide" % (o, p))
    for p, opts in sorted(pipelines.items()):
        report("`--%s" % p in guide, "pipeline --%s in the user guide" % p)
        for o in opts:
            report("%s=" % o in guide, "option %s of --%s in the user guide" % (o, p))
    print("%d flags, %d passes, %d pipelines; %d missing"
          % (len(flags), len(doc_passes), len(pipelines), missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
