#!/usr/bin/env python3
"""Checks an HTML quantization report in a real browser (headless Chromium).

  check_html_report.py PAGE.html --work DIR [--chromium chromium]
      [--min-charts N] [--width 1400] [--height 2000]

1. self-contained: the page names no external resource (no <script>, <link>,
   src=, href=, url(, @import, http:// or https://);
2. loads: Chromium loads it (--dump-dom) and logs no console message (the page
   has no script, so any message is an error: a parse error, a blocked load);
3. charts: the DOM Chromium built holds every <svg> of the file, at least
   --min-charts of them;
4. screenshot: Chromium renders it at WIDTHxHEIGHT (--screenshot); the PNG has
   those dimensions and the charts' blue (#3b6fb6) covers at least 500 pixels.
Prints `PASS|FAIL  CHECK  detail` per check; exit status 1 on a FAIL.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

EXTERNAL = re.compile(r"<script|<link|\bsrc\s*=|\bhref\s*=|url\(|@import|https?://",
                      re.IGNORECASE)
CHART_BLUE = (0x3b, 0x6f, 0xb6)


def chromium(args, page, *flags):
    command = [args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
               "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
               *flags, page.resolve().as_uri()]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page", type=Path)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--min-charts", type=int, default=1)
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=2000)
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    text = args.page.read_text(encoding="utf-8")
    ok = True

    def report(passed, check, detail):
        nonlocal ok
        ok &= passed
        print(f"{'PASS' if passed else 'FAIL'}  {check}  {detail}")

    external = sorted(set(m.group(0) for m in EXTERNAL.finditer(text)))
    report(not external, "self-contained",
           f"external references: {external}" if external else "no external reference")

    loaded = chromium(args, args.page, "--dump-dom")
    console = [line for line in loaded.stderr.splitlines() if ":CONSOLE" in line]
    report(loaded.returncode == 0 and not console, "loads",
           f"exit {loaded.returncode}, {len(console)} console messages"
           + "".join(f"\n    {line}" for line in console[:5]))

    in_file, in_dom = text.count("<svg"), loaded.stdout.count("<svg")
    report(in_dom == in_file and in_dom >= args.min_charts, "charts",
           f"{in_dom} <svg> in the DOM, {in_file} in the file (at least {args.min_charts})")

    png = args.work / "screenshot.png"
    png.unlink(missing_ok=True)
    shot = chromium(args, args.page, f"--screenshot={png}",
                    f"--window-size={args.width},{args.height}")
    if shot.returncode != 0 or not png.exists():
        report(False, "screenshot", f"exit {shot.returncode}, no {png.name}")
        return 1
    import numpy as np
    from PIL import Image
    image = Image.open(png).convert("RGB")
    pixels = np.asarray(image).astype(np.int32)
    blue = int(np.all(np.abs(pixels - np.array(CHART_BLUE)) <= 8, axis=-1).sum())
    report(image.size == (args.width, args.height) and blue >= 500, "screenshot",
           f"{image.size[0]}x{image.size[1]}, {blue} chart-blue pixels")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
