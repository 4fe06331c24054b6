"""The switch emulator's platform modules: `<platform>.py` defines SESSION (the configuration grammar) and
RENDER (show output from a Switch), the emulator piece of hostlint/switches/<platform>/ (hostlint.switches.contract)."""
