"""The web view in a real headless chromium, on the whole app and the simulator.

The acceptance path: a qd.winnow over three criteria and two lifecycle.harvest runs; the tasks
page tells the two harvests apart by their titles and shows all three advancing without a
reload; a task that fails shows its error's code in the list; after they finish the archive grid
shows qd.winnow's cell filled with its fitness, and one click on it opens the run with its niche
grid (the criteria's texts on its axes), its rounds and elites, and one more the task with its
arguments and its result as a table. Screenshots are saved (tmp dir, or $EXA_ORCH_ARTIFACTS).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from exa_orch.sim.testing import SimHandle
from tests.support import WAIT, bound
from tests.view.conftest import ServeView
from tests.workflows.conftest import OpenApp

WINNOW = {
    "query": "AI startups",
    "entity": {"type": "company"},
    "criteria": [
        {"description": "Is based in Europe"},
        {"description": "Has a strong engineering culture"},
        {"description": "Was founded after 2015"},
    ],
    "enrichments": [
        {"description": "Number of employees", "format": "number"},
        {"description": "Is it profitable", "format": "boolean"},
    ],
    "count": 6,
    "maxRounds": 2,
}
HARVEST = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "count": 5,
    "criteria": [{"description": "based in Europe"}],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "timeout": 60_000,
}
OTHER_HARVEST = {**HARVEST, "query": "Climate tech companies in Berlin"}
# An operation task that fails: the webset does not exist at Exa.
FAILING = {"type": "operation", "operation": "websets.get", "args": {"id": "webset_does_not_exist"}}
# What a row shows of its progress: the phase, the count and the bar's value.
ROW_PROGRESS = """(id) => {
  const row = document.querySelector(`tr[data-task-id="${id}"]`);
  if (!row) return null;
  const cells = row.querySelectorAll("td");
  return [row.querySelector(".msg").textContent, row.querySelector(".count").textContent,
          String(row.querySelector("progress").value), row.querySelector(".state").textContent].join("|");
}"""

TASK_PROGRESS = """() => [document.getElementById("phase").textContent, document.getElementById("count").textContent,
  String(document.getElementById("progress").value)].join("|")"""


async def test_tasks_advance_live_and_the_archive_fills_after_a_winnow(
    research_app: OpenApp,
    sim: SimHandle,
    serve_view: ServeView,
    browser: Any,
    artifacts: Path,
    tmp_path: Path,
) -> None:
    # One simulated second per wall second while the page watches: an item analyzed per second,
    # so both tasks move every few seconds and neither can finish before the page has loaded.
    sim.ctx.clock.set_speed(1)
    async with research_app("exa_orch.workflows.winnow", "exa_orch.workflows.harvest") as app:
        assert app.supervisor is not None
        winnow = (await app.run_operation("tasks.create", {"type": "qd.winnow", **WINNOW}))["taskId"]
        harvest = (await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **HARVEST}))[
            "taskId"
        ]
        other = (await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **OTHER_HARVEST}))[
            "taskId"
        ]
        failing = (await app.run_operation("tasks.create", FAILING))["taskId"]
        async with serve_view(tmp_path / "workflows.db") as url:
            page = await browser.new_page(viewport={"width": 1400, "height": 900})
            await page.goto(url + "/")
            await page.evaluate("window.__loadedOnce = true")  # gone if the page reloads
            first = {}
            for task_id in (winnow, harvest):
                await page.wait_for_function(
                    f"(id) => ({ROW_PROGRESS})(id) !== null", arg=task_id, timeout=WAIT * 1000
                )
                first[task_id] = await page.evaluate(ROW_PROGRESS, task_id)
            for task_id in (winnow, harvest):
                await page.wait_for_function(
                    f"([id, before]) => ({ROW_PROGRESS})(id) !== before",
                    arg=[task_id, first[task_id]],
                    timeout=WAIT * 1000,
                )
            assert await page.evaluate("window.__loadedOnce === true"), "the page reloaded"
            # Two tasks of one type, told apart by their titles (their queries).
            titles = {
                t: await page.locator(f'tr[data-task-id="{t}"] td.title').text_content()
                for t in (harvest, other)
            }
            assert titles == {harvest: HARVEST["query"], other: OTHER_HARVEST["query"]}
            assert await page.locator(f'tr[data-task-id="{harvest}"] td.title').is_visible()
            # A failed task: its error's code in the list, its message where the bar would be.
            failed_row = page.locator(f'tr[data-task-id="{failing}"]')
            await failed_row.locator("code.code").wait_for(timeout=WAIT * 1000)
            failed_code = await failed_row.locator("code.code").text_content()
            assert await failed_row.locator("progress").count() == 0
            await page.screenshot(path=str(artifacts / "tasks-running.png"), full_page=True)

            # A running task's own page moves too: its bar, count and events, without a reload.
            detail = await browser.new_page(viewport={"width": 1400, "height": 900})
            await detail.goto(f"{url}/tasks/{winnow}")
            await detail.evaluate("window.__loadedOnce = true")
            before = await detail.evaluate(TASK_PROGRESS)
            events_before = await detail.locator("#events tr").count()
            await detail.wait_for_function(
                f"(before) => ({TASK_PROGRESS})() !== before", arg=before, timeout=WAIT * 1000
            )
            # The events table is refreshed on its own: on a busy machine it can come in after the bar.
            await detail.wait_for_function(
                "(before) => document.querySelectorAll('#events tr').length > before",
                arg=events_before,
                timeout=WAIT * 1000,
            )
            assert await detail.evaluate("window.__loadedOnce === true"), "the task page reloaded"
            await detail.close()

            sim.ctx.clock.set_speed(100)
            done = [await app.supervisor.tasks.wait(t, timeout=bound(90)) for t in (winnow, harvest, other)]
            assert [d.status for d in done] == ["completed"] * 3, [d.error for d in done]
            failed = await app.supervisor.tasks.wait(failing, timeout=WAIT)
            for task_id in (winnow, harvest, other):
                await page.wait_for_selector(
                    f'tr[data-task-id="{task_id}"] .status.completed', timeout=WAIT * 1000
                )
            assert await page.evaluate("window.__loadedOnce === true"), "the page reloaded"
            assert (
                await page.evaluate(f"document.querySelector('tr[data-task-id=\"{winnow}\"] progress').value")
                == 1
            )
            await page.screenshot(path=str(artifacts / "tasks-done.png"), full_page=True)

            await page.click("header nav >> text=Archive")
            chip = page.locator('div.arch[data-task-type="qd.winnow"]')
            fitness_text = await chip.locator(".fit").text_content()
            assert "fit-none" not in (await chip.get_attribute("class") or "")
            assert "fit-none" not in (
                await page.locator("td.cell.filled", has=chip).get_attribute("class") or ""
            )
            assert (await chip.locator(".runs").text_content()) == "1 run"
            await page.screenshot(path=str(artifacts / "archive.png"), full_page=True)

            await chip.locator("a.best").click()  # one click from the grid to the run
            await page.wait_for_selector("#elites")
            elites = await page.locator("#elites tbody tr").count()
            grid = page.locator("#niche-grid")
            grid_text = await grid.text_content() or ""
            filled = await grid.locator("td.niche .elite").count()
            rounds_shown = await page.locator("#rounds thead th").count() - 1
            shown_task = await page.locator(f'a[href="/tasks/{winnow}"]').count()
            await page.screenshot(path=str(artifacts / "run.png"), full_page=True)
            await page.click(f'a[href="/tasks/{winnow}"]')
            await page.wait_for_selector("#result", state="attached")
            result_shown = await page.locator("#result").text_content() or ""
            arguments = await page.locator("#arguments").text_content() or ""
            items = await page.locator("#items tbody tr").count()
            runs_linked = await page.locator("a.run-link").count()
            await page.screenshot(path=str(artifacts / "task.png"), full_page=True)
            await page.goto(f"{url}/tasks/{failing}")
            failure = await page.locator("#error").text_content() or ""
            await page.screenshot(path=str(artifacts / "task-failed.png"), full_page=True)
            await page.close()
    assert shown_task == 1
    assert all(f'"{key}"' in result_shown for key in ("finalElites", "qualityMetrics", "rounds"))
    result = done[0].result
    assert elites == len(result["finalElites"]) >= 1
    assert fitness_text == f"fitness {result['qualityMetrics']['avgFitness']:.3f}"
    # The niche grid: every criterion's text on its axes, one cell per niche with its elite.
    assert all(c["description"] in grid_text for c in WINNOW["criteria"]), grid_text
    assert filled == len({e["niche"] for e in result["finalElites"]})
    assert rounds_shown == len(result["rounds"])
    # The task page: its arguments laid out first, its elites as a table, its archive run linked.
    assert WINNOW["query"] in arguments and "Has a strong engineering culture" in arguments
    assert items == len(result["finalElites"]) and runs_linked == 1
    assert failed.status == "failed" and failed.error is not None
    assert failed_code == failed.error["code"] and failed.error["code"] in failure
