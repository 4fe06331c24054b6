"""A fix action's templates (action.yaml, Jinja2 text per platform) as a model, and what its module provides."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import AfterValidator, Field, field_validator

from hostlint import platforms as registry
from hostlint.strict import Strict
from hostlint.switches.base import PlatformText
from hostlint.yamlfile import load_model

if TYPE_CHECKING:
    from hostlint.fixes.site import Site
    from hostlint.fixes.steps import Change
    from hostlint.join.facts import Fact
    from hostlint.snapshot import Snapshot

# A fix target of the registry (hostlint.platforms): a host tool, a KVM tool or a switch platform.
Platform = Annotated[str, AfterValidator(registry.check_target)]
# An ESXi host, directly or through vCenter.
HOST_PLATFORMS: tuple[Platform, ...] = registry.targets_changing("esxi")
# A KVM host: NetworkManager persists the change; iproute2 is the runtime variant (lost at reboot).
KVM_HOST_PLATFORMS: tuple[Platform, ...] = registry.targets_changing("kvm")
# A libvirt domain's definition, changed on its KVM host.
GUEST_PLATFORMS: tuple[Platform, ...] = registry.targets_changing("guest")


__all__ = ["GUEST_PLATFORMS", "HOST_PLATFORMS", "KVM_HOST_PLATFORMS", "Action", "ActionError", "PlatformText"]


class ActionError(Exception):
    """An action file that cannot be used; the message names the file and the field."""


class Action(Strict):
    action: str
    summary: str
    device: Literal["host", "switch"]
    # "lite": traffic keeps flowing but every port-channel on the switch is re-hashed.
    disruptive: Literal["yes", "no", "lite"]
    # What the action changes on its target; two steps that set the same thing on the same
    # target in one stage to different values are a conflict (see hostlint.fixes.plan).
    sets: str
    # Runs before the other steps of its stage: raising a port's MTU before it joins a port-channel
    # keeps members and channel compatible (NX-OS rejects MTU on a member once it is bundled).
    first_in_stage: bool = False
    # Adds to what is there (`allowed vlan add`): two such steps on one target build on each other and
    # never conflict (hostlint.fixes.plan).
    additive: bool = False
    describe: str
    # The text per fix target. A switch action's file has none: each switch platform's is in its folder's
    # `fixes.yaml` (hostlint/switches/<platform>/), merged in when the actions load (hostlint.fixes.actions).
    platforms: dict[Platform, PlatformText] = Field(default_factory=dict)

    @field_validator("disruptive", mode="before")
    @classmethod
    def _yaml_booleans(cls, value: object) -> object:
        # YAML reads a bare `yes`/`no` as a boolean; accept both spellings.
        if isinstance(value, bool):
            return "yes" if value else "no"
        return value

    @property
    def label(self) -> str:
        return {"yes": "DISRUPTIVE", "no": "not disruptive", "lite": "DISRUPTIVE-LITE"}[self.disruptive]


def folder_name(action: str) -> str:
    """The folder (and module) of `action`: its name with underscores for hyphens."""
    return action.replace("-", "_")


def load_action(path: Path) -> Action:
    action = load_model(path, Action, "fix action", ActionError)
    if path.parent.name != folder_name(action.action):
        raise ActionError(f"{path}: the folder must be named after the action ({folder_name(action.action)})")
    return action


# A fact and the rule's params to the changes on each device; CannotFix when it cannot be scripted.
Expander: TypeAlias = Callable[[dict[str, Any], "Fact", "Site"], list["Change"]]
# What a change does to a snapshot, edited in place (simulated apply, hostlint.fixes.simulate).
Applier: TypeAlias = Callable[["Snapshot", "Change"], None]
