"""How the tests log in to an emulated switch with real netmiko: loopback, the emulator's user, no SSH
config, agent or keys of the machine running the tests (they would change what is offered)."""

from __future__ import annotations

from typing import Any

USER = "netadmin"


def login(device_type: str, port: int, password: str) -> dict[str, Any]:
    """ConnectHandler's arguments for the emulator listening on 127.0.0.1:`port`."""
    return {
        "device_type": device_type,
        "host": "127.0.0.1",
        "port": port,
        "username": USER,
        "password": password,
        "ssh_config_file": None,
        "allow_agent": False,
        "use_keys": False,
    }
