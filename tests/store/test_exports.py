"""exa_orch.store's public API: __all__ is sorted and lists exactly what the package exports."""

from __future__ import annotations

import exa_orch.store as store_pkg


def test_all_is_sorted_and_complete() -> None:
    assert store_pkg.__all__ == sorted(store_pkg.__all__)
    public = {
        name
        for name, value in vars(store_pkg).items()
        if not name.startswith("_") and getattr(value, "__module__", "").startswith("exa_orch.store")
    }
    public |= {"TERMINAL_STATUSES", "INPUT_REQUEST_META"}
    assert set(store_pkg.__all__) == public
    for name in store_pkg.__all__:
        assert getattr(store_pkg, name) is not None


def test_shared_interface_names_exist() -> None:
    from exa_orch.store import TERMINAL_STATUSES, Store, TaskStatus

    assert {s.value for s in TaskStatus} == {
        "pending",
        "working",
        "input_required",
        "completed",
        "failed",
        "cancelled",
    }
    assert TERMINAL_STATUSES == {TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED}
    for method in (
        "create_task", "get_task", "list_tasks", "transition", "set_progress", "set_partial", "complete",
        "fail", "request_cancel", "save_step", "load_step", "load_steps", "acquire_lease", "renew_leases",
        "release_lease", "claim_runnable", "delete_expired", "events", "park", "unpark", "waiting_tasks",
    ):  # fmt: skip
        assert callable(getattr(Store, method))
