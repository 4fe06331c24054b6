"""A rule's documentation, generated from its rule file (for `hostlint rule` and docs/)."""

from __future__ import annotations

from hostlint.rules.model import Rule


def rule_markdown(rule: Rule) -> str:
    lines = [
        f"# {rule.code} {rule.name}",
        "",
        f"**Severity:** {rule.severity}  ",
        f"**Profile:** {rule.profile}  ",
        f"**Platforms:** {', '.join(rule.platforms)}  ",
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
        lines += [f"{n}. `{s.action}` ({s.stage})" for n, s in enumerate(rule.fix.steps, 1)]
        lines.append("")
    lines += ["## References", ""]
    lines += [f"- [{ref.title}]({ref.url})" for ref in rule.references]
    return "\n".join(lines) + "\n"
