"""murmur.Plan against `murmur plan`, and murmur.compare's report."""

import numpy as np
import pandas
import pytest

import murmur
from conftest import SOURCE_DIR

FLOOR_PLAN = SOURCE_DIR / "scenarios" / "floor-plan.toml"


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_plan_paths_and_exports_are_murmur_plans(tmp_path, run_murmur, backend):
    steps = 120
    for suffix in ("csv", "svg"):
        run_murmur("plan", "--scenario", FLOOR_PLAN, "--steps", steps, "--backend", backend,
                   "--out", tmp_path / f"cli.{suffix}", "--quiet")
    scenario = murmur.Scenario.load(FLOOR_PLAN)
    with murmur.Plan(scenario, backend=backend) as plan:
        plan.step(steps - 20)
        plan.step(20)
        assert plan.step_index == steps
        paths = plan.paths
        plan.export(tmp_path / "python.csv")
        plan.export(tmp_path / "python.svg")
        with pytest.raises(murmur.ScenarioError, match="must end in .svg, .dxf, .png or .csv"):
            plan.export(tmp_path / "plan.txt")
    assert (tmp_path / "python.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    assert (tmp_path / "python.svg").read_bytes() == (tmp_path / "cli.svg").read_bytes()
    expected = pandas.read_csv(tmp_path / "cli.csv")
    assert list(paths.dtype.names) == list(expected.columns)
    assert len(paths) == len(expected) > 0
    for column in ("agent", "step", "turns"):
        assert np.array_equal(paths[column], expected[column].to_numpy())
    for column in ("x", "y", "drawn_x", "drawn_y"):
        assert np.array_equal(paths[column], expected[column].to_numpy(np.float32))
    assert np.array_equal(paths["alive"], expected["alive"].to_numpy() == 1)
    assert np.array_equal(paths["parent"], expected["parent"].fillna(-1).to_numpy(np.int64))


def test_a_plan_refuses_a_flock_and_a_closed_plan_refuses_to_step(tiny_scenario):
    with pytest.raises(murmur.ScenarioError, match="needs a plan scenario"):
        murmur.Plan(murmur.Scenario.load(tiny_scenario))
    plan = murmur.Plan(murmur.Scenario.load(FLOOR_PLAN), backend="cpu")
    plan.close()
    with pytest.raises(ValueError, match="closed"):
        plan.step()


def test_compare_reports_as_murmur_compare(tiny_scenario, run_murmur):
    scenario = murmur.Scenario.load(tiny_scenario)
    report = murmur.compare(scenario, steps=40, lockstep=5)
    assert report["passed"] is True and report["kind"] == "flock"
    assert report["boids"] == 48
    assert report["lockstep"]["boids"] > 0 and report["lockstep"]["failed"] == 0
    assert len(report["free_run"]["drift"]) > 0
    cli = run_murmur("compare", "--scenario", tiny_scenario, "--steps", 40, "--lockstep", 5,
                     "--quiet")
    assert report["table"] in cli.stdout
    plan = murmur.compare(murmur.Scenario.load(FLOOR_PLAN), steps=60)
    assert plan["passed"] is True and plan["kind"] == "plan" and plan["steps"] == 60
