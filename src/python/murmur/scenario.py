"""Scenario.set and Scenario.get: Python values to and from the TOML text a --vary gives."""

import math
import tomllib


def toml_value(value):
    """The TOML text of a Python value, as a scenario file would spell it."""
    if hasattr(value, "item") and not isinstance(value, (list, tuple, str)):
        value = value.item()  # a numpy scalar
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return '"' + escaped + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"a scenario value is a bool, number, string or list, not {type(value).__name__}")


def python_value(text):
    """The Python value of a key's text (Scenario._get): a number, bool or list as TOML reads
    it, a name or a choice as the string it is."""
    try:
        return tomllib.loads("value = " + text)["value"]
    except tomllib.TOMLDecodeError:
        return text


def _set(self, key, value):
    """Sets `key` (as `murmur sweep --vary` names it: world.<key> or species.<name>.<key>) and
    checks the whole scenario; a refusal raises ScenarioError and changes nothing."""
    self._set(key, toml_value(value))


def _get(self, key):
    """The value of `key` (as `murmur sweep --vary` names it)."""
    return python_value(self._get(key))


def _install(scenario_class):
    scenario_class.set = _set
    scenario_class.get = _get
