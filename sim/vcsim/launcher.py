"""Build and run the vCenter simulator from Python (the tests and bench/vsphere.py use this).

    binary = build(Path("/tmp/build"))
    with Simulator(binary, Path("fixtures/vsphere/site.yaml"), password="pw") as sim:
        sim.url, sim.cert   # https://127.0.0.1:PORT/sdk and its self-signed certificate (PEM)

    # the same exchanges again, with no inventory behind them: record once, replay (vcsim -replay)
    with Simulator(binary, scenario, password="pw", extra_args=("-record", "/tmp/x.jsonl")) as sim: ...
    with Simulator(binary, None, password="pw", replay=Path("/tmp/x.jsonl")) as replayed: ...

Only 127.0.0.1 is ever listened on.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

SOURCE = Path(__file__).resolve().parent


class SimulatorError(RuntimeError):
    pass


def go_available() -> bool:
    return shutil.which("go") is not None


def build(dest: Path, package: str = ".", name: str = "vcsim") -> Path:
    """`go build` the simulator (or another main package of this module) into `dest`; Go caches the work."""
    dest.mkdir(parents=True, exist_ok=True)
    binary = dest / name
    done = subprocess.run(
        ["go", "build", "-o", str(binary), package],
        cwd=SOURCE,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise SimulatorError(f"go build {package} failed:\n{done.stderr}")
    return binary


class Simulator:
    """A running simulator: started on enter, stopped with SIGTERM on exit."""

    def __init__(
        self,
        binary: Path,
        scenario: Path | None,
        password: str = "vcsim-password",
        user: str = "administrator@vsphere.local",
        extra_args: tuple[str, ...] = (),
        start_timeout: float = 120.0,
        replay: Path | None = None,
    ):
        self.user, self.password = user, password
        # No scenario: govmomi's stock inventory (`-stock`, sized by -stock-clusters/-stock-hosts/-stock-vms).
        # `replay`: a file a simulator recorded with `-record FILE`, served again (`-replay`, no inventory).
        if replay is not None:
            source = ["-replay", str(replay)]
        else:
            source = ["-scenario", str(scenario)] if scenario is not None else ["-stock"]
            source += ["-user", user]
        self._args = [str(binary), *source, "-listen", "127.0.0.1:0", *extra_args]
        self._timeout = start_timeout
        self._process: subprocess.Popen | None = None
        self._stderr = None
        self.url = self.cert = ""
        self.build_ms = 0

    def __enter__(self) -> Simulator:
        env = {**os.environ, "VCSIM_PASSWORD": self.password}
        # stderr goes to a file: a pipe nobody reads would block a chatty simulator
        self._stderr = tempfile.TemporaryFile(mode="w+")
        self._process = subprocess.Popen(self._args, stdout=subprocess.PIPE, stderr=self._stderr, text=True, env=env)
        selector = selectors.DefaultSelector()
        selector.register(self._process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + self._timeout
        line = ""
        while not line and time.monotonic() < deadline:
            if selector.select(timeout=0.2):
                line = self._process.stdout.readline()
                if not line:
                    break
            elif self._process.poll() is not None:
                break
        selector.close()
        if not line:
            self.stop()
            raise SimulatorError(f"simulator did not start: {self.stderr()[-2000:]}")
        ready = json.loads(line)
        self.url, self.cert, self.build_ms = ready["url"], ready["cert"], ready.get("build_ms", 0)
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def port(self) -> int:
        return int(self.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])

    def stats(self, reset: bool = False) -> dict:
        """SOAP calls the simulator has served (and response bytes), by method."""
        import ssl

        context = ssl.create_default_context(cafile=self.cert)
        request = urllib.request.Request(
            f"https://127.0.0.1:{self.port}/hostlint/stats", method="POST" if reset else "GET"
        )
        with urllib.request.urlopen(request, context=context, timeout=10) as response:
            return json.load(response)

    def stderr(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read()

    def stop(self) -> int | None:
        process = self._process
        if process is None:
            return None
        if process.poll() is not None:
            if process.stdout:
                process.stdout.close()
            return process.returncode
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        if process.stdout:
            process.stdout.close()
        return process.returncode
