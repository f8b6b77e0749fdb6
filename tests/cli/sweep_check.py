"""Holds a row of `murmur sweep` to the definitions of docs/sweep.md ("The columns"), computed
here from the rows `murmur stats --steps` wrote for the same run, for the CLI tests. Prints one
line per difference and exits 1 if any.

  sweep_check.py SWEEP_CSV RUN STATS_CSV MEASURE_FROM [KEY ...]

RUN is the row's number (0 for the first row after the header), STATS_CSV the stats of the same
scenario, values and seed with the sweep's --steps and --every, MEASURE_FROM the sweep's
--measure-from, KEY the sweep's --vary keys. The row's header must be the keys, `seed`, then
for each column of STATS_CSV after `step` its `_mean` and `_std` (`polarization_binder` after
polarization's), or for a column of words (`state`) the column itself, its most frequent value
(ties to the one seen last), so that a new statistics column is one the sweep summarises.
"""
import csv
import math
import sys

# The statistics columns that hold words, not numbers.
WORD_COLUMNS = {"state"}
RELATIVE = 1e-5   # the stats rows print 9 digits; the sweep summarises the unrounded values
ABSOLUTE = 1e-7


def mean_std(values):
    n = len(values)
    mean = sum(values) / n
    return mean, math.sqrt(sum((x - mean) ** 2 for x in values) / n)


def binder(values):
    second = sum(x * x for x in values) / len(values)
    fourth = sum(x ** 4 for x in values) / len(values)
    return None if second == 0 else 1 - fourth / (3 * second * second)


def mode(values):
    """The most frequent value; of equally frequent ones, the one whose last occurrence is latest."""
    if not values:
        return ""
    counts, last = {}, {}
    for i, value in enumerate(values):
        counts[value] = counts.get(value, 0) + 1
        last[value] = i
    return max(counts, key=lambda value: (counts[value], last[value]))


def main(sweep_csv, run, stats_csv, measure_from, keys):
    with open(sweep_csv, newline="") as f:
        sweep = list(csv.reader(f))
    with open(stats_csv, newline="") as f:
        stats = list(csv.reader(f))
    columns = stats[0][1:]
    expected_header = list(keys) + ["seed"]
    for column in columns:
        if column in WORD_COLUMNS:
            expected_header.append(column)
            continue
        expected_header += [column + "_mean", column + "_std"]
        if column == "polarization":
            expected_header.append("polarization_binder")
    if sweep[0] != expected_header:
        print("header %s, expected %s" % (",".join(sweep[0]), ",".join(expected_header)))
        return 1
    row = dict(zip(sweep[0], sweep[1 + run]))
    window = [r for r in stats[1:] if int(r[0]) >= measure_from]
    if not window:
        print("no stats row at step %d or later" % measure_from)
        return 1
    expected = {}
    problems = 0
    for i, column in enumerate(columns, start=1):
        if column in WORD_COLUMNS:
            want = mode([r[i] for r in window if r[i] != ""])
            if row[column] != want:
                print("run %d: %s is '%s', expected '%s'" % (run, column, row[column], want))
                problems += 1
            continue
        values = [float(r[i]) for r in window if r[i] != ""]
        summary = mean_std(values) if values else (None, None)
        expected[column + "_mean"], expected[column + "_std"] = summary
        if column == "polarization":
            expected["polarization_binder"] = binder(values)
    for name, want in expected.items():
        got = row[name]
        if want is None:
            if got != "":
                print("run %d: %s is %s, expected empty" % (run, name, got))
                problems += 1
        elif got == "" or not math.isclose(float(got), want, rel_tol=RELATIVE, abs_tol=ABSOLUTE):
            print("run %d: %s is %s, expected %.9g from %d stats rows" % (run, name, got or "empty",
                                                                         want, len(window)))
            problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) < 5:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5:]))
