"""The one strict base model: every model read from a file or emitted as a published schema."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A field the model does not define is an error, never ignored: a typo in a rule, an action, a
    configuration or an inventory stops the run with a message naming it."""

    model_config = ConfigDict(extra="forbid")
