"""Switch collection over SSH: inventory -> netmiko -> ttp templates -> `Switch` models."""

from hostlint.collect.switches.inventory import Device, InventoryError, load_inventory
from hostlint.collect.switches.platforms import UnsupportedPlatform, load_platform
from hostlint.collect.switches.runner import collect_switches
from hostlint.collect.switches.session import Timeouts

__all__ = [
    "Device",
    "InventoryError",
    "Timeouts",
    "UnsupportedPlatform",
    "collect_switches",
    "load_inventory",
    "load_platform",
]
