"""murmur.Scenario: loading, TOML both ways, keys by their --vary names, and refusals as the
command line words them."""

import pickle

import pytest

import murmur
from conftest import SOURCE_DIR, write_tiny


def test_a_scenario_reads_back_from_its_own_toml():
    scenario = murmur.Scenario.load(SOURCE_DIR / "scenarios" / "ecosystem.toml")
    again = murmur.Scenario.from_toml(scenario.to_toml(), "again")
    assert again.to_toml() == scenario.to_toml()
    assert scenario.kind == "flock" and again.source == "again"
    plan = murmur.Scenario.load(SOURCE_DIR / "scenarios" / "floor-plan.toml")
    assert plan.kind == "plan"
    assert murmur.Scenario.from_toml(plan.to_toml()).to_toml() == plan.to_toml()


def test_set_and_get_use_the_sweep_names(tiny_scenario):
    scenario = murmur.Scenario.load(tiny_scenario)
    assert scenario.get("species.tiny.align_weight") == pytest.approx(0.05)
    scenario.set("species.tiny.align_weight", 0.125)
    assert scenario.get("species.tiny.align_weight") == 0.125
    assert "align_weight = 0.125" in scenario.to_toml()
    scenario.set("world.width", 80)
    assert scenario.get("world.width") == 80
    scenario.set("species.tiny.topology", "bounded")
    assert scenario.get("species.tiny.topology") == "bounded"


def test_a_refused_value_is_a_scenario_error_and_changes_nothing(tiny_scenario):
    scenario = murmur.Scenario.load(tiny_scenario)
    before = scenario.to_toml()
    with pytest.raises(murmur.ScenarioError) as refused:
        scenario.set("species.tiny.max_speed", -1.0)
    assert isinstance(refused.value, ValueError)
    message = str(refused.value)
    assert "\n" not in message and "max_speed" in message
    assert scenario.to_toml() == before
    with pytest.raises(murmur.ScenarioError, match='did you mean "align_weight"'):
        scenario.set("species.tiny.allign_weight", 0.1)
    with pytest.raises(murmur.ScenarioError, match="nobody"):
        scenario.get("species.nobody.align_weight")


def test_a_bad_file_gives_the_command_line_message(tmp_path, run_murmur):
    bad = write_tiny(tmp_path / "bad.toml", extra="fov_degrees_typo = 3\n")
    cli = run_murmur("step", "--scenario", bad, "--steps", 1, "--out", tmp_path / "x.csv", check=False)
    assert cli.returncode == 2
    cli_message = cli.stderr.strip().splitlines()[-1]
    with pytest.raises(murmur.ScenarioError) as refused:
        murmur.Scenario.load(bad)
    assert cli_message.endswith(str(refused.value))
    with pytest.raises(murmur.ScenarioError) as from_text:
        murmur.Scenario.from_toml(bad.read_text(), str(bad))
    assert str(from_text.value) == str(refused.value)


def test_a_scenario_pickles_whole(tiny_scenario):
    scenario = murmur.Scenario.load(tiny_scenario)
    scenario.set("species.tiny.cohesion_weight", 0.02)
    copy = pickle.loads(pickle.dumps(scenario))
    assert copy.to_toml() == scenario.to_toml()
    assert copy.source == scenario.source
