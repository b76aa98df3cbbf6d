"""Attribute docstrings as pydantic field descriptions, read from each module's source once.

    class Args(AttributeDocs, BaseModel):
        limit: int | None = None
        \"\"\"page size\"\"\"          # -> the `limit` field's description (unless Field gave one)

What pydantic's `use_attribute_docstrings=True` does, at a fraction of its cost on Python < 3.13:
pydantic finds each class's source by walking the stack and asking `inspect.getmodule` of every
frame (a scan of sys.modules each time), then re-tokenizes the class; ~0.2 s of CPU for the
operations' and workflows' ~90 models, a fifth of `exa-orch serve`'s cold start (bench/startup.py).
Here a module's source is parsed once, and each class's body read with pydantic's own rule: a
string statement right after an annotated `name: type` is that field's docstring.

Fill-in happens in `__pydantic_init_subclass__`, after pydantic collected the fields and before it
builds the schema (the models use `defer_build`; a model already built is rebuilt).
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import textwrap
from typing import Any


class _Visitor(ast.NodeVisitor):
    """pydantic's DocstringVisitor (pydantic/_internal/_docs_extraction.py), the same rule."""

    def __init__(self) -> None:
        self.target: str | None = None
        self.attrs: dict[str, str] = {}
        self.previous: type[ast.AST] | None = None

    def visit(self, node: ast.AST) -> Any:
        result = super().visit(node)
        self.previous = type(node)
        return result

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name):
            self.target = node.target.id

    def visit_Expr(self, node: ast.Expr) -> None:
        value = node.value
        if (
            isinstance(value, ast.Constant)
            and isinstance(value.value, str)
            and self.previous is ast.AnnAssign
        ):
            if self.target:
                self.attrs[self.target] = inspect.cleandoc(value.value)
            self.target = None

    # Nested classes and functions have attributes of their own.
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        pass

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        pass

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        pass


def _class_blocks(lines: list[str]) -> list[str]:
    """The source of each class statement at the module's top level: from `class` to the next
    line that starts in column 0 (a blank, a comment or a closing bracket does not end it)."""
    blocks = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("class "):
            i += 1
            continue
        end = i + 1
        while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#)]}"):
            end += 1
        blocks.append("".join(lines[i:end]))
        i = end
    return blocks


@functools.cache
def _module_docs(filename: str) -> dict[str, dict[str, str] | None]:
    """Class qualname -> its attribute docstrings, for the classes defined at module level or
    nested in them; None for a qualname defined twice (which one a class is can't be told).

    Only the class statements are parsed (the functions, most of a module, are not: a sixth of
    the time). A block cut short (a line in column 0 inside a string or brackets) can't parse,
    and then the whole module is."""
    try:
        with open(filename, encoding="utf-8") as f:
            lines = f.readlines()
    except (OSError, ValueError):
        return {}
    found: dict[str, dict[str, str] | None] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                name = prefix + node.name
                visitor = _Visitor()
                visitor.generic_visit(node)
                found[name] = None if name in found else visitor.attrs
                walk(node.body, name + ".")

    try:
        for block in _class_blocks(lines):
            walk(ast.parse(block, filename).body, "")
    except SyntaxError:
        found.clear()
        try:
            walk(ast.parse("".join(lines), filename).body, "")
        except SyntaxError:
            return {}
    return found


def attribute_docstrings(cls: type) -> dict[str, str] | None:
    """The class's attribute docstrings by field name; None where its source can't be read this
    way (a class made in a function, or one whose module has two classes of its name)."""
    module = sys.modules.get(cls.__module__)
    filename = getattr(module, "__file__", None)
    if not filename or not filename.endswith(".py") or "<locals>" in cls.__qualname__:
        return None
    return _module_docs(filename).get(cls.__qualname__)


def _from_inspect(cls: type) -> dict[str, str]:
    """The slow way, for the rare class `attribute_docstrings` can't place: inspect finds it."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
        node = ast.parse(source).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return {}
    visitor = _Visitor()
    visitor.generic_visit(node)
    return visitor.attrs


class AttributeDocs:
    """Mixin for a pydantic model: each field's attribute docstring becomes its description."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)  # type: ignore[misc]
        docs = attribute_docstrings(cls)
        if docs is None:
            docs = _from_inspect(cls)
        fields = cls.__pydantic_fields__  # type: ignore[attr-defined]
        changed = False
        for name, field in fields.items():
            if field.description is None and name in docs:
                field.description = docs[name]
                changed = True
        if changed and cls.__pydantic_complete__:  # type: ignore[attr-defined]
            cls.model_rebuild(force=True)  # type: ignore[attr-defined]
