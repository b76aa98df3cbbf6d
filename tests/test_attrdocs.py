"""exa_orch.attrdocs reads attribute docstrings as pydantic's `use_attribute_docstrings` does."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field
from pydantic._internal._docs_extraction import extract_docstrings_from_cls

import exa_orch.app  # noqa: F401 (every operation's and workflow's args defined)
import exa_orch.attrdocs
from exa_orch.attrdocs import AttributeDocs, attribute_docstrings
from exa_orch.operations.models import Args
from exa_orch.workflows.kit import EntityArg, TaskArgs

PACKAGE = Path(exa_orch.attrdocs.__file__).parent


def _models() -> list[type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    todo: list[type] = [AttributeDocs]
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("exa_orch.") and issubclass(cls, BaseModel):
            found[f"{cls.__module__}.{cls.__qualname__}"] = cls
        todo.extend(cls.__subclasses__())
    return list(found.values())


def test_the_package_reads_attribute_docstrings_one_way() -> None:
    # pydantic's own use_attribute_docstrings costs a cold start ~2 ms a model (exa_orch/attrdocs.py)
    slow = [
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p.name != "attrdocs.py" and "use_attribute_docstrings" in p.read_text()
    ]
    assert slow == [], "subclass exa_orch.attrdocs.AttributeDocs instead"
    assert {Args, TaskArgs, EntityArg} <= set(_models())


def test_every_model_gets_what_pydantic_itself_would_read() -> None:
    models = _models()
    assert len(models) > 50  # the operations' and the workflows' args, not a few
    described = 0
    for cls in models:
        ours = attribute_docstrings(cls)
        assert ours is not None, f"{cls.__qualname__}: not found in its module's source"
        assert ours == extract_docstrings_from_cls(cls, use_inspect=True), cls.__qualname__
        for name in ours.keys() & cls.model_fields.keys():
            assert cls.model_fields[name].description, f"{cls.__qualname__}.{name}"
            described += 1
    assert described > 100


class _Base(AttributeDocs, BaseModel):
    model_config = ConfigDict(defer_build=True)


class Documented(_Base):
    plain: int = 0
    """the plain one"""
    given: str = Field("", description="from Field")
    """not this one"""
    bare: bool = False


class Documented2(Documented):
    extra: int = 1
    """  indented
        and cleaned
    """


def test_descriptions_in_the_schema_field_wins_and_subclasses_inherit() -> None:
    props = Documented2.model_json_schema()["properties"]
    assert props["plain"]["description"] == "the plain one"
    assert props["given"]["description"] == "from Field"
    assert "description" not in props["bare"]
    assert props["extra"]["description"] == "indented\nand cleaned"


def test_a_class_made_in_a_function_is_read_too() -> None:
    class Local(_Base):
        x: int = 0
        """local x"""

    assert attribute_docstrings(Local) is None  # not placed by qualname: inspect finds it
    assert Local.model_json_schema()["properties"]["x"]["description"] == "local x"


def test_a_model_built_before_its_docs_were_read_is_rebuilt() -> None:
    class Eager(AttributeDocs, BaseModel):  # no defer_build: pydantic builds it at class creation
        y: int = 0
        """eager y"""

    assert Eager.model_json_schema()["properties"]["y"]["description"] == "eager y"


def test_a_class_whose_source_has_lines_in_column_0_is_read_whole(tmp_path: Path) -> None:
    # The docstring's second line starts in column 0: the class block alone is cut there and
    # can't parse, so the module is parsed whole (and the other class is still read).
    (tmp_path / "attrdocs_col0.py").write_text(
        "from pydantic import BaseModel\n"
        "from exa_orch.attrdocs import AttributeDocs\n\n"
        "class A(AttributeDocs, BaseModel):\n"
        "    a: int = 0\n"
        '    """first line\n'
        'second line"""\n\n'
        "def f() -> None:\n    pass\n\n"
        "class B(AttributeDocs, BaseModel):\n"
        "    b: int = 0\n"
        '    """b\'s"""\n'
    )
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("attrdocs_col0")
        assert attribute_docstrings(module.A) == {"a": "first line\nsecond line"}
        assert module.B.model_fields["b"].description == "b's"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("attrdocs_col0", None)
