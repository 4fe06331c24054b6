"""Reading a YAML or JSON file into a pydantic model, with one-line errors naming file and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from hostlint.inputfile import InputError, load_yaml

ModelT = TypeVar("ModelT", bound=BaseModel)
T = TypeVar("T")


def validation_message(path: Path, error: ValidationError) -> str:
    """`FILE: field a.b.0.c: what is wrong; field d: ...`, every error pydantic found, on one line."""
    problems = []
    for problem in error.errors():
        where = ".".join(str(part) for part in problem["loc"]) or "(top level)"
        problems.append(f"field {where}: {problem['msg']}")
    return f"{path}: {'; '.join(problems)}"


def read_yaml(path: Path, what: str, error: type[Exception]) -> Any:
    """`path` as YAML, bounded and strict (hostlint.inputfile); any problem is `error` naming the file."""
    try:
        return load_yaml(path)
    except InputError as exc:
        raise error(f"{exc} ({what})") from None


def load_model(path: Path, model: type[ModelT], what: str, error: type[Exception]) -> ModelT:
    """`path` (YAML) validated as `model`; any problem is `error` with a one-line message."""
    raw = read_yaml(path, what, error)
    try:
        return model.model_validate(raw if raw is not None else {})
    except ValidationError as exc:
        raise error(validation_message(path, exc)) from exc


def validate(path: Path, raw: Any, model: type[T], error: type[Exception]) -> T:
    """`raw` (already read from `path`) validated as `model`, a model class or a type such as list[X]."""
    try:
        return TypeAdapter(model).validate_python(raw)
    except ValidationError as exc:
        raise error(validation_message(path, exc)) from exc
