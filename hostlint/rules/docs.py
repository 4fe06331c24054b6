"""A rule's documentation, generated from its rule file (for `hostlint rule` and docs/)."""

from __future__ import annotations

from pathlib import Path

from hostlint.platforms import SWITCH_NAMES
from hostlint.rules.model import FixStep, Rule

EVERY_SWITCH = "every switch platform"


def platforms_text(platforms: list[str]) -> str:
    """A rule's platforms as its page says them: the host kinds by name, and the switch platforms as
    "every switch platform" when it applies to all of them (so a new platform changes no rule page), named
    only where a rule is limited to some."""
    switch_names = set(SWITCH_NAMES)
    named = [p for p in platforms if p not in switch_names]
    if switch_names and switch_names <= set(platforms):
        named.append(EVERY_SWITCH)
    else:
        named += [p for p in platforms if p in switch_names]
    return ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named)


def rule_markdown(rule: Rule) -> str:
    lines = [
        f"# {rule.code} {rule.name}",
        "",
        f"**Severity:** {rule.severity}  ",
        f"**Profile:** {rule.profile}  ",
        *(["**Outage:** yes, traffic is lost while this finding stands  "] if rule.outage else []),
        f"**Platforms:** {platforms_text(rule.platforms)}  ",
        f"**Checks each:** {rule.variable}" + (f" (needs {', '.join(rule.needs)} data)" if rule.needs else ""),
        "",
        rule.summary,
        "",
        "## Why it matters",
        "",
        rule.why.strip(),
        "",
        "## Anti-pattern",
        "",
        "```",
        rule.examples.bad.rstrip(),
        "```",
        "",
        "## Best practice",
        "",
        "```",
        rule.examples.good.rstrip(),
        "```",
        "",
    ]
    if rule.fix:
        lines += ["## Fix", "", f"*Applicability: {rule.fix.applicability}.* {rule.fix.summary}", ""]
        lines += [f"{n}. `{s.action}` ({_step_where(s)})" for n, s in enumerate(rule.fix.steps, 1)]
        if rule.fix.alternatives:
            lines += ["Alternatives, in the rule's order:", ""]
        for alternative in rule.fix.alternatives:
            lines += [f"- **{alternative.name}**: {alternative.why}"]
            lines += [f"  {n}. `{s.action}` ({_step_where(s)})" for n, s in enumerate(alternative.steps, 1)]
        lines.append("")
    lines += ["## References", ""]
    lines += [f"- [{ref.title}]({ref.url})" for ref in rule.references]
    return "\n".join(lines) + "\n"


def _step_where(step: FixStep) -> str:
    return f"{step.stage}; {', '.join(step.hosts)} hosts only" if step.hosts else step.stage


def catalogue_markdown(rules: list[Rule]) -> str:
    lines = [
        "# hostlint rules",
        "",
        "Generated from `rules/*.yaml` by `hostlint docs`; do not edit by hand.",
        "",
        "| code | name | severity | profile | summary |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| [{r.code}]({r.code}.md) | {r.name} | {r.severity} | {r.profile} | {r.summary} |" for r in rules]
    return "\n".join(lines) + "\n"


def write_docs(rules: list[Rule], directory: Path) -> list[Path]:
    """One markdown page per rule plus an index, generated from the rule files."""
    directory.mkdir(parents=True, exist_ok=True)
    written = [directory / "README.md"]
    written[0].write_text(catalogue_markdown(rules), encoding="utf-8")
    for rule in rules:
        page = directory / f"{rule.code}.md"
        page.write_text(rule_markdown(rule), encoding="utf-8")
        written.append(page)
    return written
