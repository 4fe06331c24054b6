"""A real SSH switch for tests: asyncssh on 127.0.0.1, a platform's prompt, captured outputs."""

from switch_emulator.scenarios import SCENARIOS, build, sample_outputs
from switch_emulator.server import EmulatedSwitch, SwitchEmulator

__all__ = ["SCENARIOS", "EmulatedSwitch", "SwitchEmulator", "build", "sample_outputs"]
