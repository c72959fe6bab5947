"""The cross-engine scenario (scenario.py) in Firefox."""

from .scenario import EngineScenario


class TestFirefox(EngineScenario):
    engine = "firefox"
