#!/usr/bin/env python3
"""Replaces one named section of bench/RESULTS.md (between BEGIN/END markers) with stdin."""
import pathlib
import sys

name = sys.argv[1]
path = pathlib.Path(__file__).resolve().parent / "RESULTS.md"
begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
body = sys.stdin.read().rstrip("\n")
text = path.read_text() if path.exists() else "# Benchmark results\n"
block = f"{begin}\n{body}\n{end}"
if begin in text and end in text:
    head, rest = text.split(begin, 1)
    text = head + block + rest.split(end, 1)[1]
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
path.write_text(text)
