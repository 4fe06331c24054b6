"""Models made by the hundred thousand share one set of their field names.

Pydantic gives every instance its own `__pydantic_fields_set__`, the names it was given (a set of
up to 30 names: about 700 bytes, as much as the rest of a small model). hostlint never reads it
(no `exclude_unset`), so every instance of a class shares one set of all the class's fields.
Assigning a field adds its name to that set, which holds it already: the shared set never changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Self

from pydantic import BaseModel


@cache
def every_field(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


class SharedFieldsSet(BaseModel):
    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__", every_field(type(self)))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        object.__setattr__(copied, "__pydantic_fields_set__", every_field(type(self)))
        return copied
