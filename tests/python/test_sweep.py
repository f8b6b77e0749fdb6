"""murmur.sweep against `murmur sweep`: local processes and a Dask LocalCluster give the
command's rows, byte for byte; a worker killed mid-sweep costs only time; a failed run names
its values and seed, and resume completes the sweep."""

import os
import signal
import threading
import time

import pandas
import pytest

import murmur
from conftest import write_tiny

VARY_CLI = ["--vary", "species.tiny.align_weight=0:0.1:3", "--vary", "species.tiny.fov_degrees=180,270"]
VARY = {"species.tiny.align_weight": "0:0.1:3", "species.tiny.fov_degrees": [180, 270]}
WINDOW = {"steps": 30, "every": 5, "measure_from": 10}
WINDOW_CLI = ["--steps", 30, "--every", 5, "--measure-from", 10]


@pytest.fixture
def bounded(tmp_path):
    # Bounded, so that milling has values.
    return write_tiny(tmp_path / "bounded.toml", topology="bounded")


def cli_sweep(run_murmur, scenario, out, seeds=2, backend="gpu"):
    run_murmur("sweep", "--scenario", scenario, *VARY_CLI, "--seeds", seeds, *WINDOW_CLI,
               "--backend", backend, "--jobs", 2, "--out", out, "--quiet")
    return out.read_bytes()


@pytest.mark.parametrize("jobs,backend", [(2, "gpu"), (1, "cpu")])
def test_local_processes_give_murmur_sweeps_rows(tmp_path, run_murmur, bounded, jobs, backend):
    expected = cli_sweep(run_murmur, bounded, tmp_path / "cli.csv", backend=backend)
    table = murmur.sweep(bounded, VARY, seeds=2, **WINDOW, backend=backend, jobs=jobs,
                         out=tmp_path / "python.csv", progress=False)
    assert (tmp_path / "python.csv").read_bytes() == expected
    assert not (tmp_path / "python.csv.partial").exists()
    pandas.testing.assert_frame_equal(table, pandas.read_csv(tmp_path / "cli.csv"))
    assert len(table) == 12 and list(table["seed"][:2]) == [42, 43]


def test_vary_with_moves_a_key_in_step_as_the_command_does(tmp_path, run_murmur, bounded):
    run_murmur("sweep", "--scenario", bounded, "--vary", "species.tiny.align_weight=0,0.05,0.1",
               "--vary-with", "species.tiny.cohesion_weight=0.02,0,0.01", "--seeds", 2,
               *WINDOW_CLI, "--backend", "cpu", "--out", tmp_path / "cli.csv", "--quiet")
    table = murmur.sweep(bounded, {"species.tiny.align_weight": [0, 0.05, 0.1]},
                         vary_with={"species.tiny.cohesion_weight": [0.02, 0, 0.01]}, seeds=2,
                         **WINDOW, backend="cpu", jobs=1, out=tmp_path / "python.csv",
                         progress=False)
    assert (tmp_path / "python.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    # Three pairs, not nine combinations.
    assert len(table) == 6
    with pytest.raises(murmur.ScenarioError, match="give as many"):
        murmur.sweep(bounded, {"species.tiny.align_weight": [0, 0.1]},
                     vary_with={"species.tiny.cohesion_weight": [0.02]}, steps=10)


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None) as local, Client(local) as client:
        yield client


def test_a_dask_cluster_gives_murmur_sweeps_rows(tmp_path, run_murmur, bounded, cluster):
    expected = cli_sweep(run_murmur, bounded, tmp_path / "cli.csv")
    table = murmur.sweep(murmur.Scenario.load(bounded), VARY, seeds=2, **WINDOW,
                         client=cluster, out=tmp_path / "dask.csv", progress=False)
    assert (tmp_path / "dask.csv").read_bytes() == expected
    pandas.testing.assert_frame_equal(table, pandas.read_csv(tmp_path / "cli.csv"))
    # 12 runs on 2 workers: each worker made its GL context once.
    made = cluster.run(lambda: __import__("murmur")._murmur._contexts_made())
    assert sorted(made.values()) == [1, 1], made


def journal_rows(journal):
    lines = [line for line in journal.read_text().splitlines() if not line.startswith("#")]
    return max(0, len(lines) - 1)  # less the header


def test_a_killed_worker_costs_only_time(tmp_path, run_murmur, cluster):
    # Runs long enough (a few tenths of a second each) that the kill lands mid-sweep.
    bounded = write_tiny(tmp_path / "bigger.toml", count=1500, topology="bounded")
    expected = cli_sweep(run_murmur, bounded, tmp_path / "cli.csv", seeds=4)
    out = tmp_path / "dask.csv"
    journal = tmp_path / "dask.csv.partial"
    outcome = {}

    def run():
        try:
            outcome["table"] = murmur.sweep(bounded, VARY, seeds=4, **WINDOW, client=cluster,
                                            out=out, progress=False)
        except BaseException as error:  # noqa: BLE001  (reported by the test below)
            outcome["error"] = error

    sweeper = threading.Thread(target=run)
    sweeper.start()
    deadline = time.monotonic() + 120
    # Once the first row is in, a worker dies with the runs it holds.
    while time.monotonic() < deadline and sweeper.is_alive():
        if journal.exists() and journal_rows(journal) >= 1:
            break
        time.sleep(0.05)
    rows_at_kill = journal_rows(journal)
    print("rows in the journal when the worker was killed:", rows_at_kill)
    pids = cluster.run(os.getpid)
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    assert 1 <= rows_at_kill < 20, rows_at_kill
    sweeper.join(timeout=300)
    assert not sweeper.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert out.read_bytes() == expected
    assert len(outcome["table"]) == 24
    assert victim not in cluster.run(os.getpid).values()


def test_a_failed_run_names_its_values_and_seed_and_resume_completes(tmp_path, run_murmur,
                                                                      bounded, monkeypatch):
    expected = cli_sweep(run_murmur, bounded, tmp_path / "cli.csv")
    real_run_point = murmur._murmur._run_point

    def failing(scenario, overrides, seed, *rest):
        if seed == 43 and dict(overrides)["species.tiny.fov_degrees"] == "270":
            raise murmur.GpuError("a planted failure")
        return real_run_point(scenario, overrides, seed, *rest)

    monkeypatch.setattr(murmur._murmur, "_run_point", failing)
    out = tmp_path / "python.csv"
    with pytest.raises(murmur.SweepRunError) as failed:
        murmur.sweep(bounded, VARY, seeds=2, **WINDOW, jobs=1, out=out, progress=False)
    message = str(failed.value)
    assert "species.tiny.align_weight=0, species.tiny.fov_degrees=270, seed 43" in message
    assert "a planted failure" in message and "3 of 12 runs failed" in message
    assert not out.exists()
    assert journal_rows(tmp_path / "python.csv.partial") == 9
    with pytest.raises(murmur.ScenarioError, match="holds an unfinished sweep"):
        murmur.sweep(bounded, VARY, seeds=2, **WINDOW, jobs=1, out=out, progress=False)
    monkeypatch.setattr(murmur._murmur, "_run_point", real_run_point)
    with pytest.raises(murmur.ScenarioError, match="--steps"):
        murmur.sweep(bounded, VARY, seeds=2, steps=31, every=5, measure_from=10, jobs=1, out=out,
                     resume=True, progress=False)
    murmur.sweep(bounded, VARY, seeds=2, **WINDOW, jobs=1, out=out, resume=True, progress=False)
    assert out.read_bytes() == expected


def test_bad_arguments_are_refused_before_any_run(tmp_path, bounded):
    with pytest.raises(murmur.ScenarioError, match="did you mean"):
        murmur.sweep(bounded, {"species.tiny.allign_weight": [0.1]}, steps=10)
    with pytest.raises(murmur.ScenarioError, match="measure"):
        murmur.sweep(bounded, VARY, steps=10, measure_from=11)
    with pytest.raises(murmur.ScenarioError, match="resume: needs out"):
        murmur.sweep(bounded, VARY, steps=10, resume=True)
    with pytest.raises(murmur.ScenarioError, match="backend 'metal'"):
        murmur.sweep(bounded, VARY, steps=10, backend="metal")
