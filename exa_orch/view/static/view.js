// exa-orch view: live updates by polling the view's JSON once a second. Text only ever goes in
// through textContent (never innerHTML), so nothing from the database is parsed as markup.
"use strict";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

function ageText(s) {
  s = Math.floor(s || 0);
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m " + String(s % 60).padStart(2, "0") + "s";
  if (s < 86400) return Math.floor(s / 3600) + "h " + String(Math.floor(s % 3600 / 60)).padStart(2, "0") + "m";
  return Math.floor(s / 86400) + "d " + Math.floor(s % 86400 / 3600) + "h";
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function countText(t) {
  if (t.completed === null || t.completed === undefined) return "";
  return t.total === null || t.total === undefined ? String(t.completed) : t.completed + "/" + t.total;
}

function setProgress(bar, fraction) {
  if (fraction === null || fraction === undefined) bar.removeAttribute("value");
  else bar.value = fraction;
}

function clockText(stamp) {
  // As the server's `present.clock`: HH:MM:SS (UTC, as stored) today, else MM-DD HH:MM.
  if (!stamp || stamp.length < 19) return "";
  const today = new Date().toISOString().slice(0, 10);
  return stamp.slice(0, 10) === today ? stamp.slice(11, 19) : stamp.slice(5, 10) + " " + stamp.slice(11, 16);
}

function labelText(key) {
  return String(key).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
}

const STOPPED_WORDS = { budget: "budget reached", timeout: "timed out" };

function statusText(t) {
  // as present.status_word: a completed task its budget or deadline stopped gets its own word
  if (t.status === "completed" && t.stopped_by) return STOPPED_WORDS[t.stopped_by] || "stopped (" + t.stopped_by + ")";
  return labelText(t.status);
}

function shortId(id) {
  return id.replace(/^task_/, "").slice(0, 8);
}

function cell(cls, text) {
  return el("td", text, cls);
}

function link(href, child) {
  const a = el("a");
  a.href = href;
  a.append(child);
  return a;
}

function taskRow(t, hasOwner) {
  // The same cells as templates/tasks.html draws.
  const tr = el("tr");
  tr.dataset.taskId = t.id;
  const href = "/tasks/" + encodeURIComponent(t.id);
  const id = cell("id");
  id.append(link(href, el("code", shortId(t.id))));
  const title = cell("title");
  const titleLink = link(href, document.createTextNode((t.title || "").slice(0, 120) || t.type));
  titleLink.title = t.title || "";
  title.append(titleLink);
  const state = cell("state");
  state.append(el("span", statusText(t), "status " + t.status + (t.stopped_by ? " stopped" : "")));
  if (t.error_code) state.append(document.createTextNode(" "), el("code", t.error_code, "code"));
  let bar;
  if (t.status === "failed") {
    bar = cell("bar failure", (t.error_message || "").slice(0, 160));
  } else {
    bar = cell("bar");
    if (t.status !== "cancelled" && !t.stopped_by) {
      const progress = el("progress");
      progress.max = 1;
      setProgress(progress, t.fraction);
      bar.append(progress);
    }
    bar.append(el("span", countText(t), "count"));
  }
  const started = cell("when", clockText(t.created_at));
  started.title = t.created_at || "";
  const ended = cell("when", clockText(t.ended_at));
  ended.title = t.ended_at || "";
  const msg = cell("msg");
  if (t.phase) msg.append(el("b", t.phase), document.createTextNode(": "));
  msg.append(document.createTextNode((t.message || "").slice(0, 160)));
  tr.append(id, title, cell("type", t.type), state, bar, started, ended, cell("age", ageText(t.duration)), cell("cost", dollarsText(t.cost_usd)), msg);
  if (hasOwner) tr.append(cell(null, t.owner || ""));
  return tr;
}

function dollarsText(usd) {
  // as present.dollars: "$0.42", "$0.0070" under a cent, empty for nothing spent
  if (!usd) return "";
  return "$" + (usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2));
}

async function poll(url) {
  const response = await fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) throw new Error("HTTP " + response.status);
  return response.json();
}

function markLive(ok) {
  const live = document.getElementById("live");
  if (!live) return;
  live.textContent = ok ? "live" : "offline, retrying";
  live.classList.toggle("stale", !ok);
}

function watchTasks(table) {
  const tbody = table.tBodies[0];
  const hasOwner = table.dataset.owner === "1";
  const tick = async () => {
    try {
      const data = await poll(table.dataset.poll);
      const rows = data.tasks.map((t) => taskRow(t, hasOwner));
      if (rows.length === 0) {
        const empty = el("tr", null, "empty");
        const filtered = new URLSearchParams(window.location.search).toString() !== "";
        const td = el("td", filtered ? "No task matches these filters." : "No tasks yet. Start one with tasks.create.");
        td.colSpan = 10;
        empty.append(td);
        rows.push(empty);
      }
      tbody.replaceChildren(...rows);
      markLive(true);
    } catch (err) {
      markLive(false);
    }
    setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
}

function watchTask(section) {
  if (section.dataset.terminal === "1") return;
  const tick = async () => {
    let data;
    try {
      data = await poll(section.dataset.poll);
    } catch (err) {
      setTimeout(tick, 2000);
      return;
    }
    const t = data.task;
    if (data.terminal) {
      // The finished page has the result and the final checkpoints: load it once.
      window.location.reload();
      return;
    }
    const status = document.getElementById("status");
    status.textContent = labelText(t.status);
    status.className = "status " + t.status;
    setProgress(document.getElementById("progress"), t.fraction);
    document.getElementById("count").textContent = countText(t);
    document.getElementById("phase").textContent = t.phase || "";
    document.getElementById("message").textContent = t.message || "";
    document.getElementById("updated").textContent = t.updated_at || "";
    document.getElementById("steps-count").textContent = t.step_count;
    const partial = document.getElementById("partial");
    const lines = [];
    for (const [k, v] of data.partialSummary) lines.push(el("dt", k), el("dd", v));
    if (lines.length) partial.replaceChildren(...lines);
    const events = document.getElementById("events");
    const seen = new Set(Array.from(events.rows, (r) => r.dataset.eventId));
    for (const e of data.events) {
      if (seen.has(String(e.id))) continue;
      const tr = el("tr");
      tr.dataset.eventId = e.id;
      tr.append(el("td", e.at), el("td", e.kind), el("td", e.status), el("td", e.message || ""));
      events.append(tr);
    }
    setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  const table = document.getElementById("tasks");
  if (table) watchTasks(table);
  const section = document.getElementById("task");
  if (section) watchTask(section);
});
