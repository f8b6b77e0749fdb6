"""murmur from Python: scenarios, flocks, floor plans, the GPU-vs-CPU harness and parameter
sweeps, locally or on a Dask cluster (docs/python.md)."""

from ._murmur import (  # noqa: F401  (re-exported)
    GpuError,
    OutputError,
    ScenarioError,
    Flock,
    Plan,
    __version__,
    compare,
)
from ._murmur import Scenario
from .scenario import _install as _install_scenario_methods
from .sweep import SweepRunError, sweep  # noqa: F401

_install_scenario_methods(Scenario)

__all__ = [
    "Scenario",
    "Flock",
    "Plan",
    "compare",
    "sweep",
    "ScenarioError",
    "GpuError",
    "OutputError",
    "SweepRunError",
    "__version__",
]
