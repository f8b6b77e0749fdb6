"""murmur.Flock against the command line: the same steps give the same state as `murmur step`,
the same statistics as `murmur stats`, and the same pixels as `murmur record`; the state
round-trips through numpy; every misuse is an exception with its message."""

import os
import subprocess
import sys

import numpy as np
import pytest

import murmur
from conftest import SOURCE_DIR, TINY_FLOCK, write_tiny


def read_png(path):
    import matplotlib.image
    pixels = matplotlib.image.imread(path)  # floats in [0, 1], exact for 8-bit PNGs
    return np.rint(pixels * 255).astype(np.uint8)


@pytest.mark.parametrize("backend", ["gpu", "cpu", "gpu-naive"])
def test_100_steps_give_murmur_steps_state(tmp_path, run_murmur, backend):
    # An ecosystem: births, deaths and food, so that the whole state is held to account.
    scenario_path = SOURCE_DIR / "scenarios" / "ecosystem.toml"
    scenario = murmur.Scenario.load(scenario_path)
    scenario.set("species.grazers.count", 300)
    scenario.set("species.hunters.count", 30)
    small = tmp_path / "small.toml"
    small.write_text(scenario.to_toml())
    run_murmur("step", "--scenario", small, "--steps", 100, "--seed", 7, "--backend", backend,
               "--out", tmp_path / "cli.npy", "--quiet")
    expected = np.load(tmp_path / "cli.npy")
    with murmur.Flock(scenario, backend=backend, seed=7) as flock:
        flock.step(60)
        flock.step(40)
        assert flock.step_index == 100
        state = flock.state
    assert state.dtype == expected.dtype
    assert np.array_equal(state, expected)


def test_the_state_round_trips_through_numpy(tiny_scenario):
    scenario = murmur.Scenario.load(tiny_scenario)
    with murmur.Flock(scenario, backend="gpu") as flock:
        flock.step(5)
        state = flock.state
        moved = state.copy()
        moved["x"][0] = 1.5
        moved["y"][0] = 2.5
        flock.set_state(moved)
        assert np.array_equal(flock.state, moved)
        assert flock.step_index == 5
        flock.step(10)
        after_set = flock.state
    # A flock that starts from the same array steps to the same place.
    with murmur.Flock(scenario, backend="gpu", state=moved) as again:
        again.step(10)
        assert np.array_equal(again.state, after_set)


def test_stats_are_murmur_stats_row(tmp_path, tiny_scenario, run_murmur):
    bounded = write_tiny(tmp_path / "bounded.toml", topology="bounded")
    run_murmur("stats", "--scenario", bounded, "--steps", 30, "--every", 30, "--out",
               tmp_path / "stats.csv", "--quiet")
    import pandas
    expected = pandas.read_csv(tmp_path / "stats.csv").iloc[-1]
    with murmur.Flock(murmur.Scenario.load(bounded), backend="gpu") as flock:
        flock.stats()
        flock.step(30)
        row = flock.stats()
    assert list(row) == list(expected.index)
    for column, value in row.items():
        if value is None:
            assert pandas.isna(expected[column]), column
        elif isinstance(value, str):
            assert value == expected[column], column
        else:
            assert value == pytest.approx(float(expected[column]), rel=1e-8, abs=1e-12), column


@pytest.mark.parametrize("name", ["starlings.toml", "ecosystem.toml"])
def test_render_gives_murmur_records_pixels(tmp_path, run_murmur, name):
    scenario = murmur.Scenario.load(SOURCE_DIR / "scenarios" / name)
    if name == "ecosystem.toml":
        scenario.set("species.grazers.count", 2000)
    # starlings.toml as it ships: its [[spawn]] flocks place all 30,000 birds, so its count
    # cannot be cut without them.
    path = tmp_path / "scenario.toml"
    path.write_text(scenario.to_toml())
    run_murmur("record", "--scenario", path, "--skip", 12, "--frames", 1, "--size", "96x64",
               "--out", tmp_path / "frames", "--quiet")
    expected = read_png(tmp_path / "frames" / "frame_000000.png")[:, :, :3]
    with murmur.Flock(scenario) as flock:
        flock.step(12)
        pixels = flock.render(96, 64)
    assert pixels.shape == (64, 96, 3) and pixels.dtype == np.uint8
    assert pixels.any()
    assert np.array_equal(pixels, expected)


def test_misuse_is_an_exception_with_its_message(tiny_scenario):
    scenario = murmur.Scenario.load(tiny_scenario)
    with pytest.raises(murmur.ScenarioError, match="backend 'vulkan': use gpu, gpu-naive or cpu"):
        murmur.Flock(scenario, backend="vulkan")
    plan = murmur.Scenario.load(SOURCE_DIR / "scenarios" / "floor-plan.toml")
    with pytest.raises(murmur.ScenarioError, match="needs a flock scenario"):
        murmur.Flock(plan)
    flock = murmur.Flock(scenario, backend="cpu")
    with pytest.raises(murmur.ScenarioError, match="draws on the GPU"):
        flock.render(8, 8)
    with pytest.raises(murmur.ScenarioError, match="must be >= 0"):
        flock.step(-1)
    bad = flock.state
    bad["x"][3] = 1e6
    with pytest.raises(murmur.ScenarioError, match="Flock.set_state"):
        flock.set_state(bad)
    with pytest.raises(murmur.ScenarioError, match="dtype"):
        flock.set_state(np.zeros(4))
    flock.close()
    assert flock.closed
    with pytest.raises(ValueError, match="Flock.step: the flock is closed"):
        flock.step()
    with pytest.raises(ValueError, match="closed"):
        flock.state


def write_deep(path, depth):
    """The tiny flock in a volume `depth` deep ([world] dimensions = 3)."""
    text = TINY_FLOCK.format(count=48, topology="wrap")
    path.write_text(text.replace("seed = 42\n", f"seed = 42\ndimensions = 3\ndepth = {depth}\n"))
    return path


def test_a_3d_flock_carries_z_and_vz(tmp_path, run_murmur):
    depth = 30.0
    deep = murmur.Scenario.load(write_deep(tmp_path / "deep.toml", depth))
    flat = murmur.Scenario.load(write_tiny(tmp_path / "flat.toml"))
    assert murmur.Flock.dtype_3d.names == (
        "id", "species", "x", "y", "z", "vx", "vy", "vz", "age", "energy")
    with murmur.Flock(deep, backend="cpu") as flock:
        state = flock.state
        assert state.dtype == murmur.Flock.dtype_3d
        moved = state.copy()
        moved["z"] = np.linspace(0.0, depth - 0.5, len(moved), dtype=np.float32)
        moved["vz"] = -0.25
        flock.set_state(moved)
        assert np.array_equal(flock.state, moved)
        with pytest.raises(murmur.ScenarioError, match=r"no z and vz fields.*world.dimensions = 3"):
            flock.set_state(np.zeros(3, dtype=murmur.Flock.dtype))
        moved["z"][0] = depth
        with pytest.raises(murmur.ScenarioError,
                           match=r"z = 30: outside the world: must be >= 0 and < 30"):
            flock.set_state(moved)
    with pytest.raises(murmur.ScenarioError, match=r"z and vz fields.*world.dimensions = 2"):
        murmur.Flock(flat, backend="cpu", state=np.zeros(3, dtype=murmur.Flock.dtype_3d))

    # The .npy `murmur step` writes for a volume is, read by numpy, the flock's own state.
    run_murmur("step", "--scenario", tmp_path / "deep.toml", "--steps", 0, "--backend", "cpu",
               "--out", tmp_path / "deep.npy", "--quiet")
    written = np.load(tmp_path / "deep.npy")
    assert written.dtype == murmur.Flock.dtype_3d
    with murmur.Flock(deep, backend="cpu") as start:
        assert np.array_equal(written, start.state)


def test_a_dense_flock_warns(tmp_path):
    dense = write_tiny(tmp_path / "dense.toml", count=3000)
    scenario = murmur.Scenario.load(dense)
    scenario.set("world.width", 20)
    scenario.set("world.height", 20)
    with pytest.warns(RuntimeWarning, match="about 3e\\+03 candidates a boid"):
        murmur.Flock(scenario, backend="cpu").close()


def test_no_gl_is_a_gpu_error(tiny_scenario):
    # libglvnd finds no EGL vendor: no context can be made.
    env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES="/nonexistent.json",
               __EGL_VENDOR_LIBRARY_DIRS="/nonexistent")
    code = (
        "import murmur\n"
        f"scenario = murmur.Scenario.load({str(tiny_scenario)!r})\n"
        "try:\n"
        "    murmur.Flock(scenario)\n"
        "except murmur.GpuError as error:\n"
        "    assert isinstance(error, RuntimeError)\n"
        "    print('GpuError:', error)\n"
        "with murmur.Flock(scenario, backend='cpu') as flock:\n"
        "    flock.step(2)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("GpuError: no OpenGL 4.5 core context")


def test_steps_release_the_gil(tiny_scenario):
    import threading
    import time
    scenario = murmur.Scenario.load(tiny_scenario)
    scenario.set("species.tiny.count", 4000)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    with murmur.Flock(scenario, backend="cpu") as flock:
        ticker = threading.Thread(target=tick)
        ticker.start()
        started = time.perf_counter()
        flock.step(40)
        ended = time.perf_counter()
        stop.set()
        ticker.join()
    during = [t for t in ticks if started < t < ended]
    # A step that held the GIL would stop the ticker for its whole length.
    assert len(during) >= 5, (len(during), ended - started)
