"""A rule file, as written under `rules/`: docs, a CEL predicate, a message and its fix."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from hostlint.platforms import HOST_KIND_NAMES, rule_platforms
from hostlint.strict import Strict

Severity = Literal["error", "warning", "info"]
Profile = Literal["minimal", "recommended", "strict"]
# Profiles are cumulative, as in ansible-lint: each includes the ones before it.
PROFILES: tuple[Profile, ...] = ("minimal", "recommended", "strict")
Applicability = Literal["safe", "unsafe", "display-only"]
Stage = Literal["host-undo", "switch", "host", "vmk", "switch-cleanup"]
# What each iterable fact kind is called inside a rule's expressions.
FACT_VARIABLES = {
    "teams": "team",
    "uplinks": "uplink",
    "vmks": "vmk",
    "iscsi": "iscsi",
    "pcie": "pcie",
    "vm_nics": "vnic",
    "vms": "vm",
    "bonds": "bond",
    "guest_nics": "nic",
    "portgroups": "pg",
    "probes": "probe",
}


class Reference(Strict):
    title: str
    url: str


class Examples(Strict):
    bad: str
    good: str


class FixStep(Strict):
    """One step of a rule's fix: a named action (hostlint/fixes/actions/<action>/) at a stage.

    `when` and `params` values are CEL expressions over the fact; a step whose
    `when` is false is left out. Stages order steps across findings and devices
    (see hostlint.fixes.plan). `hosts` limits the step to facts of these host kinds
    (an action with ESXi commands only, in a rule that also reaches KVM hosts); by
    default it applies on every host kind the rule reaches. When fix actions load, each
    step's action must have commands for every host kind and switch platform it reaches.
    """

    action: str
    stage: Stage
    when: str = "true"
    params: dict[str, str] = Field(default_factory=dict)
    hosts: list[Literal["esxi", "kvm"]] | None = Field(default=None, min_length=1)


class Alternative(Strict):
    """One candidate fix among several: its steps and, in one line, what it does and when it fits.

    The planner takes the least disruptive candidate that, simulated on the whole site with the
    rest of the plan, clears the finding without another one (hostlint.fixes.choice).
    """

    name: str
    why: str
    steps: list[FixStep] = Field(min_length=1)

    @field_validator("name", "why")
    @classmethod
    def _one_line(cls, text: str) -> str:
        if not text.strip() or "\n" in text.strip():
            raise ValueError("one line of text")
        return text.strip()


class Fix(Strict):
    """`steps` (one fix) or `alternatives` (several candidates, the planner chooses)."""

    applicability: Applicability
    summary: str
    steps: list[FixStep] = Field(default_factory=list)
    alternatives: list[Alternative] = Field(default_factory=list)

    @model_validator(mode="after")
    def _steps_or_alternatives(self) -> Fix:
        if self.steps and self.alternatives:
            raise ValueError("a fix has `steps` or `alternatives`, not both")
        if len(self.alternatives) == 1:
            raise ValueError("one alternative is a fix's `steps`: write them there")
        return self

    @property
    def candidates(self) -> list[Alternative]:
        """The alternatives, or the one fix as a single candidate."""
        if self.alternatives:
            return self.alternatives
        return [Alternative.model_construct(name="fix", why=self.summary, steps=self.steps)]

    def labelled_steps(self) -> list[tuple[str, FixStep]]:
        """Every step with where it is written (`fix.steps.0`, `fix.alternatives.1.steps.0`)."""
        found = [(f"fix.steps.{n}", step) for n, step in enumerate(self.steps)]
        for a, alternative in enumerate(self.alternatives):
            found += [(f"fix.alternatives.{a}.steps.{n}", step) for n, step in enumerate(alternative.steps)]
        return found


class Rule(Strict):
    code: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    severity: Severity
    profile: Profile = "recommended"
    # True when the finding means traffic is being lost (MAC flapping, dropped frames), not just
    # a weaker design: a remediation plan may never pass through a state with a new such finding.
    outage: bool = False
    summary: str
    why: str
    examples: Examples
    references: list[Reference] = Field(min_length=1)
    iterate: Literal[
        "teams", "uplinks", "vmks", "iscsi", "pcie", "vm_nics", "vms", "bonds", "guest_nics", "portgroups", "probes"
    ]
    needs: list[Literal["switch", "pcie"]] = Field(default_factory=list)
    # Facts without which a violation can still be found but a pass cannot be
    # claimed: the object is then reported skipped instead of passed.
    needs_for_pass: list[Literal["switch", "pcie"]] = Field(default_factory=list)
    when: str = "true"
    violation: str
    message: str
    expected: str
    actual: str
    values: dict[str, str] = Field(default_factory=dict)
    fix: Fix | None = None

    @model_validator(mode="before")
    @classmethod
    def _no_platforms(cls, data: Any) -> Any:
        if isinstance(data, dict) and "platforms" in data:
            raise ValueError(
                "`platforms` is no longer written: a rule's platforms follow from what it iterates and needs"
                " (hostlint.platforms); remove the field"
            )
        return data

    @model_validator(mode="after")
    def _step_hosts_reached(self) -> Rule:
        reached = self.host_kinds
        for label, step in self.fix.labelled_steps() if self.fix else []:
            beyond = [kind for kind in step.hosts or [] if kind not in reached]
            if beyond:
                raise ValueError(
                    f"{label}.hosts: {', '.join(beyond)} is not a host kind this rule reaches"
                    f" ({', '.join(reached) or 'none'})"
                )
        return self

    @field_validator("code")
    @classmethod
    def _code_shape(cls, code: str) -> str:
        if not re.fullmatch(r"[A-Z]{2,8}\d{3,4}", code):
            raise ValueError("a rule code is 2-8 capital letters and 3-4 digits, e.g. LG001 or ACME0001")
        return code

    @field_validator("name")
    @classmethod
    def _kebab(cls, name: str) -> str:
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
            raise ValueError("a rule name is kebab-case, e.g. ip-hash-without-port-channel")
        return name

    @property
    def variable(self) -> str:
        return FACT_VARIABLES[self.iterate]

    @property
    def platforms(self) -> list[str]:
        """Where the rule applies: the host kinds whose facts it iterates, and every switch platform
        when it reads switch data (to find a violation or to claim a pass)."""
        return rule_platforms(self.iterate, "switch" in (*self.needs, *self.needs_for_pass))

    @property
    def host_kinds(self) -> list[str]:
        """The host kinds among the rule's platforms."""
        return [p for p in self.platforms if p in HOST_KIND_NAMES]

    def step_hosts(self, step: FixStep) -> list[str]:
        """The host kinds a fix step of this rule reaches: the rule's, narrowed by the step's `hosts`."""
        return [kind for kind in self.host_kinds if step.hosts is None or kind in step.hosts]
