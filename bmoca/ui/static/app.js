// bmoca ui: play a task by hand, record it, browse demonstrations and runs.
// Every call goes through api(), which shows the server's one-line {"error"} in the page.
"use strict";

const $ = (id) => document.getElementById(id);
const LONG_PRESS_MS = 500;
let phone = null;          // the state the server last sent for this tab's phone
let pollTimer = null;
let tasks = [];            // the catalogue, for the task picker's search
let pointer = null;        // the phone pixel last hovered: the inspector shows what is there now
let hovering = false;      // whether the mouse is over the screen (the highlight is drawn)

function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => (
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
}

function clearError() { $("error").hidden = true; }

async function api(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (exc) {
    showError(`the bmoca ui server cannot be reached (${exc.message}); is it still running?`);
    throw exc;
  }
  const data = await response.json().catch(() => ({error: `${response.status} ${response.statusText}`}));
  if (!response.ok) {
    showError(data.error || `${response.status} ${response.statusText}`);
    if (response.status === 410 || response.status === 404 && path.startsWith("/api/phones/")) {
      phone = null;
    }
    throw new Error(data.error);
  }
  return data;
}

// -- play ---------------------------------------------------------------------------------

async function loadCatalogue() {
  let configs;
  [tasks, configs] = await Promise.all([api("GET", "/api/tasks"), api("GET", "/api/configs")]);
  filterTasks();
  const wanted = "settings/turn_on_airplane_mode";
  if (tasks.some((t) => t.id === wanted)) $("task").value = wanted;
  $("config-list").innerHTML = configs.map((c) =>
    `<option value="${esc(c.id)}">${esc(c.split)} · ${esc(c.device)} · ${esc(c.locale)}</option>`).join("");
}

// The picker lists the tasks whose id, app or instruction contain every word of the search.
function filterTasks() {
  const words = $("task-search").value.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = tasks.filter((t) => {
    const text = `${t.id} ${t.app} ${t.goal}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
  const kept = $("task").value;
  $("task").innerHTML = shown.map((t) =>
    `<option value="${esc(t.id)}" title="${esc(t.goal)}">${esc(t.id)}</option>`).join("");
  if (shown.some((t) => t.id === kept)) $("task").value = kept;
  $("task-count").textContent = words.length ?
    `${shown.length} of ${tasks.length} tasks match` : `${tasks.length} tasks`;
  $("start").disabled = shown.length === 0;
}

async function start(event) {
  event.preventDefault();
  clearError();
  if (!$("task").value) { showError("no task matches the search; change it to pick one"); return; }
  const body = {task: $("task").value, config: $("config").value.trim(),
                seed: parseInt($("seed").value || "0", 10)};
  if ($("locale").value.trim()) body.locale = $("locale").value.trim();
  if ($("dark").value) body.dark = $("dark").value === "true";
  if (phone) api("DELETE", `/api/phones/${phone.phone}`).catch(() => {});
  phone = null;
  show(await api("POST", "/api/phones", body));
}

function show(state) {
  phone = state;
  $("play-area").hidden = false;
  $("screen").src = `/api/phones/${state.phone}/screen/${state.episode}/${state.frame}.png`;
  $("phone").style.aspectRatio = `${state.width} / ${state.height}`;
  $("goal").textContent = `${state.goal} — ${state.task} on ${state.config} (seed ${state.seed})`;
  $("steps").textContent = `Step ${state.step} / ${state.step_limit}`;
  let outcome = "";
  if (state.success) outcome = '<span class="ok">success</span>';
  else if (state.ended) outcome = `<span class="fail">${esc(state.ending)}</span>`;
  $("outcome").innerHTML = outcome;
  $("record").disabled = !(state.success && state.recorded === null);
  $("saved").textContent = state.recorded === null ? "" :
    `recorded as demonstration ${state.recorded}`;
  const last = state.history[state.history.length - 1];
  $("last-action").innerHTML = last ? actionRows(last) : '<tr><td class="meta">none yet</td></tr>';
  $("history").innerHTML = state.history.map((h) =>
    `<li><code>${esc(JSON.stringify(h.json_action))}</code> discrete ${esc(h.discrete ?? "—")}` +
    `${h.error ? ` <span class="err">${esc(h.error)}</span>` : ""}</li>`).join("");
  $("detector").textContent = state.detector.join("\n");
  inspect();   // what is under the pointer now, after the step
}

function actionRows(h) {
  const rows = [["JSON action", `<code>${esc(JSON.stringify(h.json_action))}</code>`],
    ["discrete index", h.discrete === null ? "— (no discrete form)" :
      `<span id="discrete-index">${esc(h.discrete)}</span> <code>${esc(h.discrete_label)}</code>`],
    ["text action", `<code>${esc(h.text_action ?? "—")}</code>`],
    ["dual gesture", `<code>${esc(h.dual_gesture ? h.dual_gesture.map((v) => v.toFixed(4)).join(", ") : "—")}</code>`]];
  if (h.error) rows.push(["error", `<span class="err">${esc(h.error)}</span>`]);
  if (h.no_effect) rows.push(["effect", "none (the screen did not change)"]);
  return rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join("");
}

function toPhone(event) {
  const box = $("screen").getBoundingClientRect();
  return {x: Math.floor((event.clientX - box.left) * phone.width / box.width),
          y: Math.floor((event.clientY - box.top) * phone.height / box.height)};
}

async function send(gesture) {
  if (!phone) { showError("start a phone first (pick a task and press Start)"); return; }
  clearError();
  show(await api("POST", `/api/phones/${phone.phone}/act`, gesture));
}

let press = null;
function onDown(event) {
  if (!phone || event.button !== 0) return;
  event.preventDefault();
  press = {...toPhone(event), t: performance.now(), cx: event.clientX, cy: event.clientY};
}

function onUp(event) {
  if (!press) return;
  const start = press;
  press = null;
  const end = toPhone(event);
  const moved = Math.hypot(event.clientX - start.cx, event.clientY - start.cy);
  if (moved > 6) {
    send({gesture: "drag", x1: start.x, y1: start.y, x2: end.x, y2: end.y}).catch(() => {});
  } else if (performance.now() - start.t >= LONG_PRESS_MS) {
    send({gesture: "long_press", x: start.x, y: start.y}).catch(() => {});
  } else {
    send({gesture: "tap", x: start.x, y: start.y}).catch(() => {});
  }
}

function onHover(event) {
  if (!phone) return;
  pointer = toPhone(event);
  hovering = true;
  inspect();
}

function onLeave() {
  hovering = false;
  $("highlight").style.display = "none";
}

// The inspector reads the current observation's nodes, so a step refreshes it (a switch
// just flipped shows its new state) even when the mouse has not moved.
function inspect() {
  if (!phone || !pointer) return;
  const {x, y} = pointer;
  let best = null;
  for (const n of phone.nodes) {
    const [x1, y1, x2, y2] = n.bounds;
    if (x >= x1 && x < x2 && y >= y1 && y < y2) {
      const area = (x2 - x1) * (y2 - y1);
      if (!best || area <= best.area) best = {...n, area};
    }
  }
  const hl = $("highlight");
  if (!best) {
    hl.style.display = "none";
    $("inspector").innerHTML = `<tr><th>pointer</th><td>(${x}, ${y}): no element</td></tr>`;
    return;
  }
  const sx = 100 / phone.width, sy = 100 / phone.height;
  const [x1, y1, x2, y2] = best.bounds;
  Object.assign(hl.style, {display: hovering ? "block" : "none", left: `${x1 * sx}%`, top: `${y1 * sy}%`,
                           width: `${(x2 - x1) * sx}%`, height: `${(y2 - y1) * sy}%`});
  const rows = [["pointer", `(${x}, ${y})`], ["bounds", `[${x1},${y1}][${x2},${y2}]`],
    ["resource id", best.resource_id], ["class", best.class], ["text", best.text],
    ["content desc", best.content_desc], ["clickable", best.clickable], ["checked", best.checked]];
  $("inspector").innerHTML = rows.map(([k, v]) => `<tr><th>${k}</th><td>${esc(v)}</td></tr>`).join("");
}

async function record() {
  clearError();
  const state = await api("POST", `/api/phones/${phone.phone}/record`);
  show(state);
}

async function reset() {
  clearError();
  show(await api("POST", `/api/phones/${phone.phone}/reset`));
}

// -- demonstrations -------------------------------------------------------------------------

async function showDemos() {
  const data = await api("GET", "/api/demos");
  $("demos-path").textContent = `dataset: ${data.dataset} (${data.episodes.length} episodes)`;
  $("demos-table").tBodies[0].innerHTML = data.episodes.map((d) =>
    `<tr><td>${esc(d.number)}</td><td>${esc(d.task_id)}</td><td>${esc(d.config_id)}</td>` +
    `<td>${esc(d.steps)}</td><td>${d.human ? "human" : "expert"}</td><td>${esc(d.repeat)}</td>` +
    `<td>${d.final_screenshot ? `<img class="thumb" src="/demos/files/${esc(d.final_screenshot)}" alt="final screen">` : ""}</td></tr>`).join("");
}

// -- runs ---------------------------------------------------------------------------------

const pct = (rate) => rate === null ? "—" : `${Math.round(rate * 100)}%`;

async function showRuns() {
  const data = await api("GET", "/api/runs");
  $("runs-root").textContent = `runs under ${data.root}`;
  $("runs-table").tBodies[0].innerHTML = data.runs.map((r) =>
    `<tr><td><a href="#runs/${encodeURIComponent(r.name)}">${esc(r.name)}</a></td>` +
    `<td>${esc(r.agents.join(", "))}</td><td>${esc(r.finished)} / ${esc(r.planned)}` +
    `${r.running ? ` (${esc(r.running)} running)` : ""}</td><td>${pct(r.success_rate)}</td>` +
    `<td>${esc(r.created)}</td></tr>`).join("");
  $("runs-damaged").replaceChildren(...data.damaged.map((d) => {
    const item = document.createElement("li");
    item.textContent = `${d.name}: damaged, not listed (${d.error})`;
    return item;
  }));
  return data.runs.some((r) => r.running || r.finished < r.planned);
}

async function showRun(name) {
  const query = new URLSearchParams({task: $("filter-task").value,
    config: $("filter-config").value, status: $("filter-status").value});
  const data = await api("GET", `/api/runs/${encodeURIComponent(name)}?${query}`);
  $("run-title").textContent = `Run ${data.name}`;
  $("run-progress").textContent = `${data.finished} of ${data.planned} episodes finished` +
    (data.finished < data.planned ? " (updating live)" : "");
  $("run-tables").innerHTML = data.tables.map((t) =>
    `<h3>Agent <code>${esc(t.agent)}</code>: ${pct(t.overall)}</h3><div class="wide"><table class="success"><thead><tr>` +
    `<th>task</th><th>all</th>${t.configs.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>` +
    t.rows.map((r) => `<tr><td>${esc(r.task)}</td><td>${pct(r.rate)}</td>` +
      r.cells.map((c) => `<td>${pct(c)}</td>`).join("") + "</tr>").join("") + "</tbody></table></div>").join("");
  const select = $("filter-config");
  if (select.options.length === 1) {
    select.innerHTML += data.configs.map((c) => `<option>${esc(c)}</option>`).join("");
  }
  const cls = {success: "ok", fail: "fail", error: "err"};
  $("episodes-table").tBodies[0].innerHTML = data.episodes.map((e) =>
    `<tr><td><a href="#runs/${encodeURIComponent(name)}/${encodeURIComponent(e.episode_id)}">${esc(e.episode_id)}</a></td>` +
    `<td>${esc(e.agent)}</td><td>${esc(e.task_id)}</td><td>${esc(e.config_id)}</td><td>${esc(e.repeat)}</td>` +
    `<td class="${cls[e.status] || ""}">${esc(e.status)}</td><td>${esc(e.steps ?? "")}</td>` +
    `<td>${esc(e.input_tokens ?? "—")} / ${esc(e.output_tokens ?? "—")}</td></tr>`).join("");
  return data.finished < data.planned;
}

let episode = null;
let stepIndex = 0;

async function showEpisode(name, id) {
  episode = await api("GET", `/api/runs/${encodeURIComponent(name)}/episodes/${id}`);
  episode.run = name;
  stepIndex = 0;
  $("episode-back").href = `#runs/${encodeURIComponent(name)}`;
  $("episode-back").textContent = `run ${name}`;
  $("episode-report").href = `/runs/${encodeURIComponent(name)}/report/episodes/${id}.html`;
  $("episode-title").textContent = `Episode ${id}: ${episode.task_id}`;
  $("episode-facts").textContent = `${episode.agent} on ${episode.config_id}: ${episode.status}` +
    (episode.input_tokens !== null ? `, ${episode.input_tokens} input / ${episode.output_tokens} output tokens` : "") +
    (episode.error ? ` — ${episode.error}` : "");
  renderStep();
}

// The tap or swipe drawn over a stored step's screenshot. Only finite numbers are drawn:
// the store is a file anyone may have edited, and these go into markup.
const isNum = (v) => typeof v === "number" && Number.isFinite(v);
const nums = (v, n) => Array.isArray(v) && v.length === n && v.every(isNum);

function overlay(step) {
  if (!Array.isArray(step.gesture) || !nums(step.screen_size, 2)) return "";
  const [w, h] = step.screen_size;
  if (!(w > 0 && h > 0)) return "";
  const r = Math.max(w, h) * 0.022;
  const parts = step.gesture.map((g) => {
    if (!g || typeof g !== "object") return "";
    const point = g.tap || g.long_press;
    if (nums(point, 2)) return `<circle cx="${point[0]}" cy="${point[1]}" r="${r}" fill="rgba(255,0,0,.35)" stroke="red" stroke-width="${r / 4}"/>`;
    if (nums(g.swipe, 4)) {
      const [x1, y1, x2, y2] = g.swipe;
      return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="red" stroke-width="${r / 2}"/><circle cx="${x1}" cy="${y1}" r="${r / 2}" fill="red"/>`;
    }
    return "";
  });
  return `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none">${parts.join("")}</svg>`;
}

function renderStep() {
  const steps = episode.steps;
  const last = stepIndex >= steps.length;   // the final screen, after the last step
  const step = last ? null : steps[stepIndex];
  const shot = last ? episode.final_screenshot : step.screenshot;
  const base = `/runs/${encodeURIComponent(episode.run)}/`;
  $("episode-shot").innerHTML = shot ? `<img src="${base}${esc(shot)}" alt="step ${stepIndex}">${step ? overlay(step) : ""}` :
    '<p class="meta">no screenshot saved (bmoca eval --save-screens)</p>';
  const total = steps.length + (episode.final_screenshot ? 1 : 0);
  $("step-of").textContent = last ? `final screen` : `step ${stepIndex + 1} of ${steps.length}`;
  $("prev-step").disabled = stepIndex === 0;
  $("next-step").disabled = stepIndex + 1 >= Math.max(total, 1);
  if (last) {
    $("episode-step").innerHTML = `<h3>Final screen</h3><p>${esc(episode.status)}</p>` +
      `<pre>${esc((episode.detector_trace || []).join ? episode.detector_trace.join("\n") : episode.detector_trace)}</pre>`;
    return;
  }
  $("episode-step").innerHTML = `<h3 id="step-label">Step ${esc(step.step)}: ${esc(step.label || "(unparsed)")}</h3>` +
    `<p class="${step.valid ? "" : "err"}">${step.valid ? "valid" : `invalid: ${esc(step.error)}`}; ` +
    `success after the step: ${esc(step.success)}</p><p>action as the agent gave it:</p><pre>${esc(step.action)}</pre>` +
    (step.reasoning ? `<p>model answer (${esc(step.input_tokens)} in / ${esc(step.output_tokens)} out tokens):</p><pre>${esc(step.reasoning)}</pre>` : "");
}

// -- routing ------------------------------------------------------------------------------

function route() {
  clearInterval(pollTimer);
  const [view, name, id] = (location.hash.slice(1) || "play").split("/").map(decodeURIComponent);
  const target = view === "runs" ? (id ? "episode" : name ? "run" : "runs") : view;
  for (const s of document.querySelectorAll("section")) s.hidden = s.id !== `view-${target}`;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.id === `nav-${view}`);
  const live = (load) => load().then((going) => {
    if (going) pollTimer = setInterval(() => load().catch(() => {}), 2000);
  }).catch(() => {});
  if (target === "demos") showDemos().catch(() => {});
  else if (target === "runs") live(showRuns);
  else if (target === "run") live(() => showRun(name));
  else if (target === "episode") showEpisode(name, id).catch(() => {});
}

function init() {
  $("start-form").addEventListener("submit", (e) => start(e).catch(() => {}));
  $("screen").addEventListener("mousedown", onDown);
  window.addEventListener("mouseup", (e) => { if (press) onUp(e); });
  $("screen").addEventListener("mousemove", onHover);
  $("screen").addEventListener("mouseleave", onLeave);
  $("task-search").addEventListener("input", filterTasks);
  $("task-search").addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown") { e.preventDefault(); $("task").focus(); }
  });
  for (const b of document.querySelectorAll(".keys button")) {
    b.addEventListener("click", () => send({gesture: "key", key: b.dataset.key}).catch(() => {}));
  }
  $("text-form").addEventListener("submit", (e) => {
    e.preventDefault();
    send({gesture: "text", text: $("text").value}).then(() => { $("text").value = ""; }).catch(() => {});
  });
  $("record").addEventListener("click", () => record().catch(() => {}));
  $("reset").addEventListener("click", () => reset().catch(() => {}));
  $("error-close").addEventListener("click", clearError);
  $("prev-step").addEventListener("click", () => { stepIndex -= 1; renderStep(); });
  $("next-step").addEventListener("click", () => { stepIndex += 1; renderStep(); });
  for (const id of ["filter-task", "filter-config", "filter-status"]) {
    $(id).addEventListener("input", () => route());
  }
  $("filters").addEventListener("submit", (e) => e.preventDefault());
  // a message belongs to the view it came from: switching views dismisses it
  window.addEventListener("hashchange", () => { clearError(); route(); });
  loadCatalogue().catch(() => {});
  route();
}

init();
