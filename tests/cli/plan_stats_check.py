"""Checks `murmur stats` rows of a plan scenario against the counting rules of docs/model.md
("Plan statistics"), for the CLI tests. Prints one line per broken rule and exits 1 if any.

  plan_stats_check.py FILE AGENTS EVERY   the CSV, the start's agents, the rows' spacing

Agents born by branching (docs/model.md, "Branching") raise `agents` and `births` together, and
`living` by at most the births since the row before.
"""
import csv
import sys

COLUMNS = ["step", "living", "points", "died_too_slow", "died_too_close",
           "died_too_many_turns", "drawn_length", "drawn_length_horizontal",
           "drawn_length_vertical", "agents", "births", "births_dropped", "coverage"]


def main(path, agents, every):
    problems = []
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        if header != COLUMNS:
            print("header %s, expected %s" % (",".join(header), ",".join(COLUMNS)))
            return 1
        rows = [dict(zip(header, (float(v) if v else None for v in row))) for row in reader]
    if not rows or rows[0]["step"] != 0 or rows[0]["living"] != agents or rows[0]["points"] != 0:
        problems.append("the first row is not step 0 with every agent living and no point")
    previous = None
    for row in rows:
        step = int(row["step"])
        deaths = row["died_too_slow"] + row["died_too_close"] + row["died_too_many_turns"]
        if row["living"] + deaths != row["agents"]:
            problems.append("step %d: living + deaths = %d, not its %d agents"
                            % (step, row["living"] + deaths, row["agents"]))
        if row["agents"] != agents + row["births"]:
            problems.append("step %d: %d agents, not the start's %d + %d births"
                            % (step, row["agents"], agents, row["births"]))
        if row["coverage"] is not None and not 0 <= row["coverage"] <= 1:
            problems.append("step %d: coverage %g outside [0, 1]" % (step, row["coverage"]))
        total = row["drawn_length_horizontal"] + row["drawn_length_vertical"]
        if abs(row["drawn_length"] - total) > 1e-8 * max(1.0, total):
            problems.append("step %d: drawn_length is not the sum of the two pens" % step)
        if previous is not None:
            steps = step - int(previous["step"])
            rise = row["points"] - previous["points"]
            if steps != every:
                problems.append("step %d follows step %d" % (step, previous["step"]))
            born = row["births"] - previous["births"]
            if row["living"] > previous["living"] + born:
                problems.append("step %d: living rose by more than the %d births" % (step, born))
            for count in ("births", "births_dropped", "coverage"):
                if row[count] is not None and row[count] < previous[count]:
                    problems.append("step %d: %s fell" % (step, count))
            # Each step saves one point per agent alive at its start (those dying in it too);
            # the bounds hold over K steps only when nothing is born in them.
            if born == 0 and (rise > steps * previous["living"] or rise < steps * row["living"]):
                problems.append("step %d: points rose by %d, outside [%d, %d]"
                                % (step, rise, steps * row["living"],
                                   steps * previous["living"]))
            if every == 1 and rise != previous["living"]:
                problems.append("step %d: points rose by %d, not the %d living before it"
                                % (step, rise, previous["living"]))
            for pen in ("drawn_length", "drawn_length_horizontal", "drawn_length_vertical"):
                if row[pen] < previous[pen]:
                    problems.append("step %d: %s fell" % (step, pen))
        previous = row
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
