#!/usr/bin/env python3
"""Writes the ratio table of BENCHMARKS.md from criterion's saved estimates.

In every criterion group, the functions whose id starts with `isect` are ours and
every other function is a competitor (parry's public API or direct kernel) measured
in the same run. The table gives each competitor's time divided by ours: above 1
means isect is faster.

Usage: python3 scripts/bench_table.py [target/criterion] [--write BENCHMARKS.md]
With --write, the table replaces the text between the `<!-- table -->` and
`<!-- /table -->` markers of that file; otherwise it goes to standard output.
"""
import json
import pathlib
import sys


def mean_ns(bench_dir):
    est = bench_dir / "new" / "estimates.json"
    if not est.exists():
        return None
    return json.loads(est.read_text())["mean"]["point_estimate"]


def groups(root):
    for group in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "report"):
        funcs = {}
        for bench in sorted(group.rglob("new/estimates.json")):
            fdir = bench.parent.parent
            name = str(fdir.relative_to(group))
            funcs[name] = mean_ns(fdir)
        if funcs:
            yield group.name, funcs


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.2f} ns"


def is_batch(name):
    return "_batch" in name.split("/")[0]


def table(root):
    rows = [
        "| group | isect | competitor | competitor time | ratio (competitor / isect) |",
        "|---|---|---|---|---|",
    ]
    for group, funcs in groups(root):
        ours = {k: v for k, v in funcs.items() if k.split("/")[0].startswith("isect")}
        theirs = {k: v for k, v in funcs.items() if k not in ours}
        their_batches = any(is_batch(k) for k in theirs)
        for our_name, our_ns in ours.items():
            suffix = our_name.split("/", 1)[1] if "/" in our_name else None
            for their_name, their_ns in theirs.items():
                their_suffix = their_name.split("/", 1)[1] if "/" in their_name else None
                # Where the competitor has a batch variant (all cases in one
                # iteration), a batch pairs only with a batch and a call with a call.
                mixed = is_batch(our_name) != is_batch(their_name)
                if suffix != their_suffix or (their_batches and mixed):
                    continue
                ratio = their_ns / our_ns
                rows.append(
                    f"| {group} | {our_name} {fmt_time(our_ns)} | {their_name} "
                    f"| {fmt_time(their_ns)} | **{ratio:.2f}×** |"
                )
    return "\n".join(rows)


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    write = "--write" in sys.argv
    target = args.pop() if write else None
    root = pathlib.Path(args[0] if args else "target/criterion")
    text = table(root)
    if not write:
        print(text)
        return
    path = pathlib.Path(target)
    doc = path.read_text()
    start, end = "<!-- table -->", "<!-- /table -->"
    head, rest = doc.split(start, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{start}\n{text}\n{end}{tail}")


if __name__ == "__main__":
    main()
