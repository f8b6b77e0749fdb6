"""murmur.sweep: the `murmur sweep` study from Python (docs/python.md, "Sweeps").

Every run goes through the one C++ function `murmur sweep`'s jobs call
(study::run_sweep_point, bound as _run_point): here in local processes, or as a task on a Dask
cluster's workers. Rows are kept in run order whatever order they finish in, so the table is
the command's, row for row."""

import concurrent.futures
import hashlib
import io
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path

from . import _murmur
from .scenario import toml_value


class SweepRunError(RuntimeError):
    """A run of a sweep failed: the message names its values and seed."""


def _run_task(scenario, overrides, seed, steps, every, measure_from, backend, index, described):
    """One run to its row, in whichever process runs it (a local worker or a Dask worker, each
    with its own GL context, made at its first run and kept for the rest)."""
    try:
        cells = _murmur._run_point(scenario, overrides, seed, steps, every, measure_from, backend)
    except Exception as error:  # noqa: BLE001  (any failure is the run's, with its values)
        raise SweepRunError(f"run {index} ({described}) failed: {error}") from None
    return index, _murmur._csv_line(cells)


def _axis_values(key, values):
    if isinstance(values, str):
        return values  # FROM:TO:COUNT or V1,V2,..., as --vary takes it
    try:
        items = list(values)
    except TypeError:
        items = [values]
    return [toml_value(value) for value in items]


def _seeds_argument(seeds):
    if isinstance(seeds, bool):
        raise TypeError("seeds: a count or a list of seeds, not a bool")
    if isinstance(seeds, int) or (hasattr(seeds, "item") and not hasattr(seeds, "__len__")):
        return int(seeds)
    return [int(seed) for seed in seeds]


def _journal_definition(scenario, definition, seeds, steps, every, measure_from, backend):
    """What a resume must match: the arguments that shape the rows and the scenario's values."""
    text = scenario.to_toml().encode()
    lines = [f"--scenario {scenario.source} (SHA-256 of its values: {hashlib.sha256(text).hexdigest()})"]
    lines += list(definition.axis_flags)
    seeds_text = str(seeds) if isinstance(seeds, int) else ",".join(str(s) for s in seeds)
    lines += [f"--seeds {seeds_text}", f"--steps {steps}", f"--every {every}",
              f"--measure-from {measure_from}", f"--backend {backend}"]
    return lines


def _progress_bar(total, show):
    if not show or total == 0:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc="murmur sweep", unit="run")


def _write_atomically(path, text):
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent or ".")
    try:
        with os.fdopen(handle, "w", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _local_results(tasks, jobs):
    """Each task's result as it finishes, in `jobs` processes (this one when jobs is 1)."""
    if jobs == 1:
        for task in tasks:
            try:
                yield task[7], _run_task(*task), None
            except SweepRunError as error:
                yield task[7], None, error
        return
    # spawn: a forked child would inherit this process's GL thread without its thread.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(_run_task, *task): task[7] for task in tasks}
        for future in concurrent.futures.as_completed(futures):
            error = future.exception()
            yield futures[future], (None if error else future.result()), error


def _dask_results(tasks, client):
    """Each task's result as it finishes, each task on the cluster's workers. A worker lost
    mid-run costs only time: the scheduler runs its tasks again elsewhere."""
    from distributed import as_completed

    futures = {client.submit(_run_task, *task, pure=False): task[7] for task in tasks}
    try:
        for future in as_completed(list(futures)):
            error = future.exception()
            yield futures[future], (None if error else future.result()), error
    finally:
        client.cancel(list(futures))


def sweep(scenario, vary, *, vary_with=None, seeds=1, steps, every=1, measure_from=0,
          backend="gpu", client=None, jobs=None, out=None, resume=False, progress=True):
    """Runs `scenario` over every combination of the `vary` values (the first key outermost),
    once per seed (the seeds innermost), and returns the table `murmur sweep` writes, one row
    per run in run order, as a pandas DataFrame.

    scenario: a Scenario or a scenario file's path. vary: {key: values}, each key as --vary
    names it and its values a list or a "FROM:TO:COUNT" text. vary_with: {key: values} whose
    values move in step with the last vary key's (as --vary-with: as many values, no new
    combinations). seeds: a count (from the
    scenario's seed on) or a list. steps, every, measure_from: as --steps, --every and
    --measure-from. client: None runs `jobs` local processes (default: one per core);
    a dask.distributed.Client runs each run as a task on its workers. out: the CSV to write,
    with its journal out + ".partial" kept as runs finish; resume=True completes a journal
    left by an interrupted sweep. A failed run raises SweepRunError naming its values and seed,
    once the others have finished (their rows kept in the journal)."""
    import pandas

    if not isinstance(scenario, _murmur.Scenario):
        scenario = _murmur.Scenario.load(os.fspath(scenario))
    if not isinstance(vary, dict):
        raise TypeError("vary: a dict {key: values}")
    vary_with = {} if vary_with is None else vary_with
    if not isinstance(vary_with, dict):
        raise TypeError("vary_with: a dict {key: values}")
    seeds = _seeds_argument(seeds)
    definition = _murmur._define_sweep(
        scenario, [(key, _axis_values(key, values)) for key, values in vary.items()],
        [(key, _axis_values(key, values)) for key, values in vary_with.items()], seeds,
        steps, every, measure_from)
    _murmur._check_backend(backend)  # before any run, not at the first run's worker
    if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
        raise _murmur.ScenarioError(f"jobs {jobs!r}: must be an integer >= 1")
    if client is not None and jobs is not None:
        raise _murmur.ScenarioError("jobs: applies to local processes; the client's workers run a Dask sweep")
    runs = definition.runs
    header = _murmur._csv_line(definition.header)

    rows = {}
    journal = None
    if out is not None:
        out = Path(out)
        if not out.parent.is_dir():
            raise _murmur.OutputError(f"out {out}: the folder {out.parent} does not exist")
        journal_path = Path(_murmur._journal_path(out))
        head = _journal_definition(scenario, definition, seeds, steps, every, measure_from, backend)
        if resume:
            if not journal_path.exists():
                raise _murmur.ScenarioError(f"resume: there is no {journal_path} to complete")
            rows, journal = _murmur._journal_resume(journal_path, head, header, len(runs))
            rows = dict(rows)
        elif journal_path.exists():
            raise _murmur.ScenarioError(
                f"out {out}: {journal_path} holds an unfinished sweep: resume=True completes it, "
                "or remove it")
        else:
            journal = _murmur._journal_create(journal_path, head, header)
    elif resume:
        raise _murmur.ScenarioError("resume: needs out, the CSV whose journal it completes")

    tasks = [(scenario, overrides, seed, steps, every, measure_from, backend, index,
              definition.describe(index))
             for index, overrides, seed in runs if index not in rows]
    if client is None:
        results = _local_results(tasks, jobs or os.cpu_count() or 1)
    else:
        results = _dask_results(tasks, client)
    bar = _progress_bar(len(tasks), progress)
    failures = []
    try:
        for index, result, error in results:
            if error is not None:
                failures.append(error if isinstance(error, SweepRunError)
                                else SweepRunError(f"run {index} ({definition.describe(index)}) failed: {error}"))
                print(f"murmur.sweep: {failures[-1]}", file=sys.stderr)
                continue
            _, row = result
            if journal is not None:
                journal.append(index, row)
            rows[index] = row
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    if failures:
        kept = f"; the {len(rows)} finished are kept in {journal_path}, and resume=True makes the others" \
            if journal is not None else ""
        raise SweepRunError(f"{failures[0]} ({len(failures)} of {len(runs)} runs failed{kept})")

    text = header + "\n" + "".join(rows[index] + "\n" for index in sorted(rows))
    if out is not None:
        del journal  # closes it
        _write_atomically(out, text)
        journal_path.unlink(missing_ok=True)
    return pandas.read_csv(io.StringIO(text))
