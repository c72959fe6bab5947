"""The cross-engine scenario (scenario.py) in Webkit."""

from .scenario import EngineScenario


class TestWebkit(EngineScenario):
    engine = "webkit"
