"""The size limits of issue 38, kept from growing back.

- At most MAX_BIG_MODULES modules of exa_orch/ over MODULE_LINES lines (a line of the file).
- At most MAX_LONG_FUNCTIONS functions or methods (nested ones too) over FUNCTION_LINES lines,
  counted from the `def` line to the last line of the body, decorators left out.
- No block (function, method or class) that radon's cyclomatic complexity rates D or worse (a
  complexity of 21 or more) in exa_orch/workflows/ or exa_orch/gateway/.

Nothing is imported: the modules are parsed with `ast`, and radon reads the same source text.
A failure lists every offender with its figure, biggest first, so the fix starts at the top.
When one of these goes over, split the module or function by concern (a sibling module, a helper
with a docstring that states its contract), rather than raising the limit.
"""

from __future__ import annotations

import ast
from pathlib import Path

from radon.complexity import cc_rank, cc_visit

import exa_orch

PACKAGE_DIR = Path(exa_orch.__file__).parent

MODULE_LINES = 500
MAX_BIG_MODULES = 6
FUNCTION_LINES = 60
MAX_LONG_FUNCTIONS = 8
RANKED_FOLDERS = ("workflows", "gateway")  # no block rated D or worse in these
WORST_RANK = "C"  # the worst rank allowed there


def _name(path: Path, root: Path) -> str:
    return path.relative_to(root.parent).as_posix()


def big_modules(root: Path = PACKAGE_DIR) -> list[tuple[str, int]]:
    """(module, lines) of every module under `root` over MODULE_LINES lines, longest first."""
    found = []
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MODULE_LINES:
            found.append((_name(path, root), lines))
    return sorted(found, key=lambda f: -f[1])


def long_functions(root: Path = PACKAGE_DIR) -> list[tuple[str, int]]:
    """(module:qualified name, lines) of every function under `root` over FUNCTION_LINES lines,
    longest first."""
    found: list[tuple[str, int]] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

        def visit(node: ast.AST, prefix: str, module: str = _name(path, root)) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    qualified = f"{prefix}{child.name}"
                    if not isinstance(child, ast.ClassDef):
                        assert child.end_lineno is not None
                        lines = child.end_lineno - child.lineno + 1
                        if lines > FUNCTION_LINES:
                            found.append((f"{module}:{qualified}", lines))
                    visit(child, qualified + ".")
                else:
                    visit(child, prefix)

        visit(tree, "")
    return sorted(found, key=lambda f: -f[1])


def complex_blocks(root: Path = PACKAGE_DIR) -> list[tuple[str, int]]:
    """(module:block, complexity) of every block radon rates worse than WORST_RANK in
    RANKED_FOLDERS of `root`, most complex first: the blocks `radon cc` reports (functions,
    methods, and classes, whose figure is their methods' mean plus one)."""
    found: list[tuple[str, int]] = []
    for folder in RANKED_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            found.extend(
                (f"{_name(path, root)}:{block.fullname}", block.complexity)
                for block in cc_visit(path.read_text(encoding="utf-8"))
                if cc_rank(block.complexity) > WORST_RANK
            )
    return sorted(found, key=lambda f: -f[1])


def _listing(found: list[tuple[str, int]]) -> str:
    return "\n".join(f"  {figure:5d}  {where}" for where, figure in found)


def test_few_modules_are_over_the_module_limit() -> None:
    found = big_modules()
    assert len(found) <= MAX_BIG_MODULES, (
        f"{len(found)} modules are over {MODULE_LINES} lines (at most {MAX_BIG_MODULES} may be); "
        f"split one by concern:\n{_listing(found)}"
    )


def test_few_functions_are_over_the_function_limit() -> None:
    found = long_functions()
    assert len(found) <= MAX_LONG_FUNCTIONS, (
        f"{len(found)} functions are over {FUNCTION_LINES} lines (at most {MAX_LONG_FUNCTIONS} may "
        f"be); split one into helpers:\n{_listing(found)}"
    )


def test_no_block_in_workflows_or_gateway_is_rated_d_or_worse() -> None:
    found = complex_blocks()
    assert not found, (
        f"{len(found)} blocks in exa_orch/{{{','.join(RANKED_FOLDERS)}}} have a cyclomatic "
        f"complexity radon rates D or worse (21+); split their branches:\n{_listing(found)}"
    )


def test_the_counters_find_what_they_count(tmp_path: Path) -> None:
    """On a package made here: a long module, a long method's long closure (both counted, by
    their qualified names) and a complex method in gateway/ are found; a short function and a
    complex one outside the ranked folders are not."""
    root = tmp_path / "pkg"
    (root / "gateway").mkdir(parents=True)
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    nested = body.replace("    ", "            ")
    branches = "\n".join(f"        if x == {i}:\n            return {i}" for i in range(25))
    (root / "long.py").write_text(
        f"def long():\n{body}\n\n\ndef short():\n    return 1\n\n\n"
        f"class C:\n    def m(self):\n        def inner():\n{nested}\n" + "\n" * MODULE_LINES
    )
    branchy = f"class G:\n    def pick(self, x):\n{branches}\n        return -1\n"
    (root / "gateway" / "g.py").write_text(branchy)
    (root / "elsewhere.py").write_text(branchy)
    assert [m for m, _ in big_modules(root)] == ["pkg/long.py"]
    assert long_functions(root) == [
        ("pkg/long.py:C.m", FUNCTION_LINES + 2),
        ("pkg/long.py:long", FUNCTION_LINES + 1),
        ("pkg/long.py:C.m.inner", FUNCTION_LINES + 1),
    ]
    assert complex_blocks(root) == [("pkg/gateway/g.py:G", 27), ("pkg/gateway/g.py:G.pick", 26)]
