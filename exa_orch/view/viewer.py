"""Whose tasks a view may show: one principal's, or (the operator) every owner's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exa_orch.runtime import Principal


@dataclass(frozen=True)
class Viewer:
    """Whose tasks a view shows: one principal's (`Viewer(principal)`; unowned tasks too when the
    principal `sees_unowned`, i.e. is the local user), or every owner's (`Viewer.all_owners()`,
    the operator mode of `--all-owners`). There is no default: each query names its viewer."""

    principal: Principal | None

    @classmethod
    def all_owners(cls) -> Viewer:
        """The operator: every task, whoever owns it."""
        return cls(None)

    @property
    def sees_all(self) -> bool:
        """True in operator mode."""
        return self.principal is None

    def owner_filter(self, owner: str) -> tuple[str, tuple[Any, ...]]:
        """A SQL condition (and its parameters) true for rows whose owner, the SQL expression
        `owner` (NULL for no owner), this viewer may see."""
        if self.principal is None:
            return "TRUE", ()
        if self.principal.sees_unowned:
            return f"({owner} = ? OR {owner} IS NULL)", (self.principal.name,)
        return f"{owner} = ?", (self.principal.name,)
