"""Bounds on a rule's evaluation: how deep its comprehensions nest, and how long one evaluation may take.

The `cel` package has no cost limit (cel-go's `CostLimit` has no counterpart in it), and it holds the GIL
while it runs, so no watchdog thread can interrupt an expression. Its cost is bounded as CEL's own cost
estimator bounds it, by shape: each comprehension (`exists`, `all`, `map`, `filter`, `exists_one`)
multiplies the cost of its body by the length of its list, so nesting them makes the cost the product of
the lists' lengths (four nested `exists` ran 70 s). A rule may nest three, as deep as a shipped rule goes;
a rule nesting more is refused when it is loaded, naming it. Then one evaluation is at worst cubic in a
fact's lists, and is timed: one over EVALUATION_BUDGET_S stops the check
(exit 2) naming the rule and the object, instead of a check that seems to hang.
"""

from __future__ import annotations

import os

from hostlint.errors import UserError
from hostlint.rules.celcheck import CelSyntaxError, tokenize

# VL006 nests three (a port group's uplinks, their allowed ranges, the VLANs): the deepest shipped rule.
MAX_COMPREHENSION_NESTING = 3
_COMPREHENSIONS = {"all", "exists", "exists_one", "filter", "map"}
BUDGET_ENV = "HOSTLINT_RULE_BUDGET_S"
# One rule on one fact takes microseconds; seconds means an expression whose cost is out of hand.
DEFAULT_EVALUATION_BUDGET_S = 5.0


class RuleRuntimeError(UserError):
    """A rule that failed while it ran for a reason no fact explains (over its budget, a division by zero):
    a defect of the rule, stopping the check with a message that names the rule."""


def evaluation_budget() -> float:
    value = os.environ.get(BUDGET_ENV, "")
    try:
        budget = float(value) if value else DEFAULT_EVALUATION_BUDGET_S
    except ValueError:
        budget = DEFAULT_EVALUATION_BUDGET_S
    return budget if budget > 0 else DEFAULT_EVALUATION_BUDGET_S


def comprehension_nesting(source: str) -> tuple[int, int]:
    """The deepest nesting of comprehensions in a CEL expression, and the offset of the deepest one."""
    try:
        tokens = tokenize(source)
    except CelSyntaxError:
        return 0, 0
    tokens = [t for t in tokens if t.kind != "space"]
    # For each open parenthesis: whether it opened a comprehension.
    opened: list[bool] = []
    deepest, where = 0, 0
    for index, token in enumerate(tokens):
        if token.text == "(":
            macro = (
                index >= 2
                and tokens[index - 1].kind == "ident"
                and tokens[index - 1].text in _COMPREHENSIONS
                and tokens[index - 2].text == "."
            )
            opened.append(macro)
            depth = sum(opened)
            if macro and depth > deepest:
                deepest, where = depth, tokens[index - 1].offset
        elif token.text == ")" and opened:
            opened.pop()
    return deepest, where
