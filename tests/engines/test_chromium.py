"""The cross-engine scenario (scenario.py) in Chromium."""

from .scenario import EngineScenario


class TestChromium(EngineScenario):
    engine = "chromium"
