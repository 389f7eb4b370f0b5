"""The -csv FILE option of the bench/*/run scripts, in one place.

A run script prints its table for a person to read; with -csv FILE it also
writes the medians that table shows as CSV, for bench/run-all to collect,
bench/plot/*.gp to draw and bench/splice-docs to put into docs/*.md.  The
shape is the same everywhere: a header row naming each column with its
unit, then one row per measured configuration, the configuration's key
columns first, then gl's values, Go's values and the gl/Go ratio.  A value
that was not measured (Go not installed, say) is an empty cell, never a
dash, so that gnuplot sees it as missing."""
import csv


def cell(v, fmt="%.2f"):
    """v as the CSV shows it: empty if None, strings as they are."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    return fmt % v


def ratio(a, b, fmt="%.2f"):
    """a/b, or empty when either is missing or b is zero."""
    if a is None or not b:
        return ""
    return fmt % (a / b)


def write(path, header, rows):
    """The CSV file: header, then rows (lists of cells, None for empty)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(["" if c is None else c for c in r])


def option(args):
    """Takes "-csv FILE" out of an argument list (in place) and returns
    FILE, or None when it is not there."""
    if "-csv" not in args:
        return None
    i = args.index("-csv")
    if i + 1 >= len(args):
        raise SystemExit("-csv needs a file name")
    path = args[i + 1]
    del args[i:i + 2]
    return path
