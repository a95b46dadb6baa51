#!/usr/bin/env python3
"""Structure-aware seeds for the trainsim fuzzers: valid YAML with one number mutated.

For each mode (run, model, platform) this takes its bundled files, finds every scalar that starts
with a number (plain or with a unit, e.g. `80GiB`), and writes one copy per edge value with that
number replaced: near 0, 1, 2^31, 2^53, 2^63 and 1e+-308, keeping the unit. Random bytes rarely
reach the checks behind a valid document; these start there. Deterministic: same files, same seeds.

usage: make_seeds.py OUT_DIR MODE    (MODE: run, model or platform; run from the repository root)
"""
import os
import re
import sys

BASES = {
    "run": ["workloads/default.yaml"],
    "model": ["workloads/models/mixtral-8x7b.yaml", "workloads/models/deepseek-v3.yaml"],
    "platform": ["platforms/dgx-h100-superpod.yaml"],
}
EDGES = ["0", "1", "-1", "2147483647", "2147483648", "9007199254740993", "9223372036854775807",
         "9223372036854775808", "1e308", "1e-308", "0.5"]
NUMBER = re.compile(r"(:\s*)(-?[0-9][0-9.]*(?:e-?[0-9]+)?)([A-Za-z/]*)(?=\s*(?:[,}#]|$))", re.M)


def main():
    out_dir, mode = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    count = 0
    for b, base in enumerate(BASES[mode]):
        text = open(base, encoding="utf-8").read()
        for i, match in enumerate(NUMBER.finditer(text)):
            for j, edge in enumerate(EDGES):
                mutated = text[: match.start(2)] + edge + text[match.end(2):]
                with open(os.path.join(out_dir, "edge-%d-%03d-%02d.yaml" % (b, i, j)), "w", encoding="utf-8") as f:
                    f.write(mutated)
                count += 1
    print("%s: %d structure-aware seeds in %s" % (mode, count, out_dir))


if __name__ == "__main__":
    main()
