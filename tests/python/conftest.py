"""Shared fixtures of the Python module's tests (docs/python.md): the murmur binary they hold
the module to, and small scenarios. ctest runs each test file with PYTHONPATH naming
build/python and MURMUR_BINARY the build's murmur."""

import os
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parents[2]

# The tiny flock of tests/cli/lib.bash (write_tiny_scenario): 48 boids on a 60 x 40 torus.
TINY_FLOCK = """\
[world]
width = 60.0
height = 40.0
seed = 42

[[species]]
name = "tiny"
count = {count}
topology = "{topology}"
perception_radius = 6.0
separation_radius = 2.0
fov_degrees = 270.0
align_weight = 0.05
cohesion_weight = 0.01
separation_weight = 0.5
max_force = 0.1
min_speed = 0.5
max_speed = 1.5
edge_margin = 4.0
edge_gain = 0.05
"""


@pytest.fixture(scope="session")
def murmur_binary():
    binary = os.environ.get("MURMUR_BINARY")
    if not binary:
        pytest.fail("MURMUR_BINARY is not set: run these tests through ctest (tools/test)")
    return binary


@pytest.fixture(scope="session")
def run_murmur(murmur_binary):
    def run(*args, check=True):
        done = subprocess.run([murmur_binary, *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"murmur {' '.join(map(str, args))} exited {done.returncode}: {done.stderr}")
        return done
    return run


def write_tiny(path, count=48, topology="wrap", extra=""):
    path.write_text(TINY_FLOCK.format(count=count, topology=topology) + extra)
    return path


@pytest.fixture
def tiny_scenario(tmp_path):
    return write_tiny(tmp_path / "tiny.toml")
