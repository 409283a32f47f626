"""`bmoca report RUN_DIR`: a Markdown and an HTML report built from a run's SQLite store.

Everything comes from the store (and the screenshots beside it), never from memory, so a
report can be rebuilt at any time, also while a run is still going. The numbers are those
of `bmoca.eval.metrics` (success mean ± standard error over repeats; 'error' episodes are
infrastructure failures, counted apart and excluded from rates). Several agents in one
store get one section each. Model usage (tokens, cost, the model's answers) appears when
the store has the usage columns; older stores simply show none.

Output (default `RUN_DIR/report/`): `report.md`, `report.html`, `episodes/<id>.html` (one
page per episode: screenshots with the action drawn on them, the model's answers, the
detector trace) and `plots/*.png` (needs the `report` extra). HTML pages are
self-contained: inline CSS, relative links, no scripts, every stored string escaped.
"""

from __future__ import annotations

import html
import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bmoca.eval import curves as learning_curves
from bmoca.eval import factors, harm, metrics, progress
from bmoca.eval.metrics import Cell
from bmoca.eval.store import FILENAME, EpisodeRow, RunRow, StepRow, Store, StoreError

PLOTS = ("success_by_config", "success_by_task", "success_by_category")


class ReportError(Exception):
    """The run directory cannot be reported on; the message says why."""


@dataclass
class Usage:
    """Model usage summed over episodes; None when no episode recorded any."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    cost_unknown: int = 0
    """Episodes with tokens but no known cost (a price the provider table lacks)."""

    def add(self, row: dict[str, Any] | None) -> None:
        if not row or row.get("input_tokens") is None and row.get("output_tokens") is None:
            return
        self.input_tokens = (self.input_tokens or 0) + int(row.get("input_tokens") or 0)
        self.output_tokens = (self.output_tokens or 0) + int(row.get("output_tokens") or 0)
        if row.get("cost_usd") is None:
            self.cost_unknown += 1
        else:
            self.cost_usd = (self.cost_usd or 0.0) + float(row["cost_usd"])


@dataclass
class Section:
    """Everything the report says about one agent."""

    agent: str
    episodes: list[EpisodeRow]
    table: metrics.Table
    categories: dict[str, Cell]
    category_of: dict[str, str]
    invalid_actions: int
    usage: Usage
    task_usage: dict[str, Usage]
    task_invalid: dict[str, int]

    @property
    def errors(self) -> list[EpisodeRow]:
        return [e for e in self.episodes if e.status == "error"]


@dataclass
class Report:
    run_dir: Path
    out: Path
    runs: list[RunRow]
    sections: list[Section]
    plots: list[str] = field(default_factory=list)
    plot_note: str | None = None
    has_usage: bool = False
    efficiency: dict[str, Any] = field(default_factory=dict)
    """Per agent, its `bmoca.eval.progress.EfficiencyTable`."""
    factors: list[Any] = field(default_factory=list)
    """`bmoca.eval.factors.FactorTable`s of agents run on a factor grid (factors.html)."""
    factor_plots: list[str] = field(default_factory=list)
    curves: list[learning_curves.Curve] = field(default_factory=list)
    """The learning curves of the RL fine-tuning behind the evaluated agents."""
    curve_plots: list[str] = field(default_factory=list)
    """File names (no extension) of the curves' plots, where drawn: their `slug`s."""
    harm: list[Any] = field(default_factory=list)
    """`bmoca.eval.harm.Harm` per agent, when episodes were shown injected text."""

    @property
    def markdown(self) -> Path:
        return self.out / "report.md"

    @property
    def html(self) -> Path:
        return self.out / "report.html"


# -- reading -----------------------------------------------------------------------------


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def _usage_rows(path: Path) -> tuple[bool, dict[int, dict[str, Any]]]:
    """Per-episode usage columns, when the store has them (added with model agents)."""
    db = sqlite3.connect(path)
    try:
        cols = _columns(db, "episodes")
        wanted = [c for c in ("input_tokens", "output_tokens", "cost_usd") if c in cols]
        if not wanted:
            return False, {}
        rows = db.execute(f"SELECT episode_id, {', '.join(wanted)} FROM episodes").fetchall()
        return True, {r[0]: dict(zip(wanted, r[1:], strict=True)) for r in rows}
    finally:
        db.close()


def _agent_outputs(path: Path, episode_id: int) -> dict[int, Any]:
    """step -> decoded `agent_output` (a model agent's last_call), when the column exists."""
    db = sqlite3.connect(path)
    try:
        if "agent_output" not in _columns(db, "steps"):
            return {}
        rows = db.execute("SELECT step, agent_output FROM steps WHERE episode_id=? AND "
                          "agent_output IS NOT NULL", (episode_id,)).fetchall()
    finally:
        db.close()
    out = {}
    for step, text in rows:
        try:
            out[step] = json.loads(text)
        except ValueError:
            out[step] = {"response": text}
    return out


def _category(task_id: str) -> str:
    from bmoca import tasks

    try:
        return tasks.get(task_id).category
    except tasks.TaskError:
        return "Other"


def _sections(episodes: Sequence[EpisodeRow], usage: dict[int, dict[str, Any]],
              invalid_of: dict[int, int]) -> list[Section]:
    from bmoca.tasks import CATEGORIES

    out = []
    for agent in sorted({e.agent for e in episodes}):
        eps = [e for e in episodes if e.agent == agent]
        category_of = {t: _category(t) for t in sorted({e.task_id for e in eps})}
        order = [c for c in CATEGORIES if c in category_of.values()]
        order += sorted(set(category_of.values()) - set(order))
        total, per_task, task_invalid = Usage(), {}, {}
        for e in eps:
            total.add(usage.get(e.episode_id))
            per_task.setdefault(e.task_id, Usage()).add(usage.get(e.episode_id))
            task_invalid[e.task_id] = task_invalid.get(e.task_id, 0) + invalid_of[e.episode_id]
        out.append(Section(
            agent=agent, episodes=eps, table=metrics.success_table(eps),
            categories={c: metrics.summarize(e for e in eps if category_of[e.task_id] == c)
                        for c in order},
            category_of=category_of,
            invalid_actions=sum(invalid_of[e.episode_id] for e in eps),
            usage=total, task_usage=per_task, task_invalid=task_invalid))
    return out


def _invalid(episode: EpisodeRow, steps: list[StepRow]) -> int:
    """Invalid actions of an episode: the stored count, or its steps' for unfinished ones."""
    if episode.invalid_actions is not None:
        return episode.invalid_actions
    return sum(1 for s in steps if not s.valid)


# -- formatting --------------------------------------------------------------------------


def _pct(cell: Cell) -> str:
    return metrics.format_cell(cell)


def _steps(cell: Cell) -> str:
    return "–" if cell.episodes == 0 else f"{cell.mean_steps:.1f}"


def _int(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def _cost(usage: Usage) -> str:
    if usage.cost_usd is None:
        return "unknown" if usage.cost_unknown else "–"
    text = f"${usage.cost_usd:.4f}"
    return text + (f" (+{usage.cost_unknown} unknown)" if usage.cost_unknown else "")


def _summary_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    header = ["agent", "episodes", "success % ± se", "avg steps", "invalid actions", "errors"]
    if report.has_usage:
        header += ["input tokens", "output tokens", "cost (USD)"]
    rows = []
    for s in report.sections:
        o = s.table.overall
        row = [s.agent, str(o.episodes), _pct(o), _steps(o), str(s.invalid_actions),
               str(o.errors)]
        if report.has_usage:
            row += [_int(s.usage.input_tokens), _int(s.usage.output_tokens), _cost(s.usage)]
        rows.append(row)
    return header, rows


def _category_rows(s: Section) -> tuple[list[str], list[list[str]]]:
    header = ["category", "tasks", "episodes", "success % ± se", "avg steps", "errors"]
    rows = [[c, str(sum(1 for v in s.category_of.values() if v == c)), str(cell.episodes),
             _pct(cell), _steps(cell), str(cell.errors)] for c, cell in s.categories.items()]
    o = s.table.overall
    rows.append(["overall", str(len(s.category_of)), str(o.episodes), _pct(o), _steps(o),
                 str(o.errors)])
    return header, rows


def _task_rows(report: Report, s: Section) -> tuple[list[str], list[list[str]]]:
    header = ["task", "category", "episodes", "success % ± se", "avg steps", "invalid actions",
              "errors"]
    if report.has_usage:
        header += ["input tokens", "output tokens", "cost (USD)"]
    rows = []
    for t in s.table.tasks:
        cell = s.table.per_task[t]
        row = [t, s.category_of[t], str(cell.episodes), _pct(cell), _steps(cell),
               str(s.task_invalid.get(t, 0)), str(cell.errors)]
        if report.has_usage:
            u = s.task_usage.get(t, Usage())
            row += [_int(u.input_tokens), _int(u.output_tokens), _cost(u)]
        rows.append(row)
    return header, rows


def _matrix_rows(s: Section) -> tuple[list[str], list[list[str]]]:
    t = s.table
    header = ["task", *t.configs, "all"]
    rows = [[task, *(_pct(t.cells[(task, c)]) for c in t.configs), _pct(t.per_task[task])]
            for task in t.tasks]
    rows.append(["all tasks", *(_pct(t.per_config[c]) for c in t.configs), _pct(t.overall)])
    return header, rows


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"

    return [line(header), "| " + " | ".join([":---"] + ["---:"] * (len(header) - 1)) + " |",
            *(line(r) for r in rows), ""]


def _caption() -> str:
    return ("Success % is the mean over episodes ± the standard error over repeats "
            "(bmoca.eval.metrics); `–` means no finished episode. Errors are infrastructure "
            "failures (device, set-up, a model provider that kept failing): counted here, "
            "excluded from every rate.")


def _error_line(e: EpisodeRow) -> str:
    message = " ".join((e.error or "").split())
    return f"episode {e.episode_id}: {e.task_id} on {e.config_id} #{e.repeat}: {message}"


def to_markdown(report: Report) -> str:
    lines = [f"# bmoca report: {report.run_dir.name}", ""]
    for run in report.runs:
        lines.append(f"* run `{run.run_id}`: agent `{run.agent}`, created {run.created}, "
                     f"bmoca {run.bmoca_version}")
    lines += ["", _caption(), "", "## Summary", "", *_md_table(*_summary_rows(report))]
    if report.factors:
        lines += ["Factor analysis (which factor drops success): [factors.md](factors.md)", ""]
    if report.harm:
        lines += ["## Content injection", "", harm.markdown(report.harm)]
    if report.plot_note:
        lines += [f"*{report.plot_note}*", ""]
    for s in report.sections:
        lines += [f"## Agent `{s.agent}`", "", "### Per category", "",
                  *_md_table(*_category_rows(s)), "### Per task x configuration", "",
                  *_md_table(*_matrix_rows(s)), "### Per task", "",
                  *_md_table(*_task_rows(report, s))]
        if s.agent in report.efficiency:
            lines += ["### Efficiency and done claims", "",
                      *_md_table(*progress.rows(report.efficiency[s.agent])),
                      f"*{progress.CAPTION}*", ""]
        if s.errors:
            lines += ["### Infrastructure errors (excluded from rates)", ""]
            lines += [f"* {_error_line(e)}" for e in s.errors] + [""]
    lines += _curves_markdown(report)
    if report.plots:
        lines += ["## Plots", ""]
        lines += [f"![{name}](plots/{name}.png)" for name in report.plots] + [""]
    lines += ["Episode pages: `report.html` links one page per episode (screens, actions, "
              "model answers, detector trace).", ""]
    return "\n".join(lines)


# -- HTML --------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#222}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}
h3{font-size:15px}table{border-collapse:collapse;margin:8px 0 16px}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}th{background:#f4f4f4}
.ok{color:#137333}.fail{color:#b3261e}.err{color:#a15c00}
pre{background:#f6f6f6;padding:8px;white-space:pre-wrap;word-break:break-word;max-width:900px}
.step{display:flex;gap:16px;border-top:1px solid #eee;padding:12px 0}
.shot{position:relative;display:inline-block;width:270px;flex:none}
.shot img{width:100%;display:block;border:1px solid #ccc}
.shot svg{position:absolute;left:0;top:0;width:100%;height:100%}
.meta{color:#555}img.plot{max-width:100%;border:1px solid #eee;margin:8px 0}
.wide{overflow-x:auto;max-width:100%}
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _page(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def _html_table(header: list[str], rows: list[list[str]], links: dict[str, str] | None = None
                ) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = []
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            if i == 0 and links and c in links:
                cells.append(f'<td><a href="{_e(links[c])}">{_e(c)}</a></td>')
            else:
                cells.append(f"<td>{_e(c)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    # a wide table (many configurations) scrolls in its own box, not the whole page
    return (f'<div class="wide"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>")


def _status(e: EpisodeRow) -> str:
    if e.status == "error":
        return '<span class="err">error</span>'
    if e.status != "done":
        return _e(e.status)
    return '<span class="ok">success</span>' if e.success else '<span class="fail">fail</span>'


def to_html(report: Report) -> str:
    body = [f"<h1>bmoca report: {_e(report.run_dir.name)}</h1>", "<ul>"]
    body += [f"<li>run <code>{_e(r.run_id)}</code>: agent <code>{_e(r.agent)}</code>, created "
             f"{_e(r.created)}, bmoca {_e(r.bmoca_version)}</li>" for r in report.runs]
    body += ["</ul>", f"<p class=\"meta\">{_e(_caption())}</p>", "<h2>Summary</h2>",
             _html_table(*_summary_rows(report))]
    if report.harm:
        body += ["<h2>Content injection</h2>", _html_table(harm.HEADER, harm.rows(report.harm)),
                 f"<p class=\"meta\">{_e(harm.CAPTION)}</p>"]
    if report.factors:
        body.append('<p><a href="factors.html">Factor analysis</a>: which factor drops '
                    "success, with standard errors and a plot per factor.</p>")
    if report.plot_note:
        body.append(f"<p class=\"err\">{_e(report.plot_note)}</p>")
    for name in report.plots:
        body.append(f'<img class="plot" src="plots/{_e(name)}.png" alt="{_e(name)}">')
    for s in report.sections:
        body += [f"<h2>Agent <code>{_e(s.agent)}</code></h2>", "<h3>Per category</h3>",
                 _html_table(*_category_rows(s)), "<h3>Per task × configuration</h3>",
                 _html_table(*_matrix_rows(s)), "<h3>Per task</h3>",
                 _html_table(*_task_rows(report, s))]
        if s.agent in report.efficiency:
            body += ["<h3>Efficiency and done claims</h3>",
                     _html_table(*progress.rows(report.efficiency[s.agent])),
                     f'<p class="meta">{_e(progress.CAPTION)}</p>']
        if s.errors:
            body.append("<h3>Infrastructure errors (excluded from rates)</h3><ul>")
            body += [f'<li><a href="episodes/{e.episode_id}.html">{_e(_error_line(e))}</a></li>'
                     for e in s.errors]
            body.append("</ul>")
        body.append("<h3>Episodes</h3>")
        head = "".join(f"<th>{h}</th>" for h in ("episode", "task", "configuration", "repeat",
                                                  "status", "steps", "invalid actions"))
        rows = [f'<tr><td><a href="episodes/{e.episode_id}.html">{e.episode_id}</a></td>'
                f"<td>{_e(e.task_id)}</td><td>{_e(e.config_id)}</td><td>{e.repeat}</td>"
                f"<td>{_status(e)}</td><td>{_e(e.steps)}</td><td>{_e(e.invalid_actions)}</td></tr>"
                for e in s.episodes]
        body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    body += _curves_html(report)
    return _page(f"bmoca report: {report.run_dir.name}", body)


def _curves_markdown(report: Report) -> list[str]:
    lines = ["## Learning curves", "", f"*{learning_curves.CAPTION}*", ""] if report.curves else []
    for c in report.curves:
        lines += [f"### `{c.name}`", "", f"`{c.path}`: {learning_curves.summary(c)}.", ""]
        if c.slug in report.curve_plots:
            lines += [f"![{c.name}](plots/{c.slug}.png)", ""]
        lines += _md_table(*learning_curves.rows(c))
    return lines


def _curves_html(report: Report) -> list[str]:
    body = (["<h2>Learning curves</h2>", f'<p class="meta">{_e(learning_curves.CAPTION)}</p>']
            if report.curves else [])
    for c in report.curves:
        body += [f"<h3><code>{_e(c.name)}</code></h3>",
                 f"<p><code>{_e(c.path)}</code>: {_e(learning_curves.summary(c))}.</p>"]
        if c.slug in report.curve_plots:
            body.append(f'<img class="plot" src="plots/{_e(c.slug)}.png" alt="{_e(c.name)}">')
        body.append(_html_table(*learning_curves.rows(c)))
    return body


def _overlay(info: dict[str, Any], uid: str = "") -> str:
    """SVG in screen pixels over the screenshot: tap dot, swipe arrow, pressed key."""
    size = info.get("screen_size")
    gesture = info.get("gesture")
    if not size or not gesture:
        return ""
    w, h = (int(v) for v in size)
    r, stroke = max(w, h) * 0.022, max(w, h) / 200
    parts = []
    for g in gesture:
        if "tap" in g or "long_press" in g:
            x, y = g.get("tap") or g["long_press"]
            parts.append(f'<circle cx="{x}" cy="{y}" r="{r:.0f}" fill="rgba(255,0,0,.35)" '
                         f'stroke="red" stroke-width="{stroke:.0f}"/>')
            if "long_press" in g:
                parts.append(f'<circle cx="{x}" cy="{y}" r="{r * 1.6:.0f}" fill="none" '
                             f'stroke="red" stroke-width="{stroke:.0f}"/>')
        elif "swipe" in g:
            x1, y1, x2, y2 = g["swipe"]
            parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="red" '
                         f'stroke-width="{stroke * 1.5:.0f}" marker-end="url(#arrow{uid})"/>'
                         f'<circle cx="{x1}" cy="{y1}" r="{r * 0.6:.0f}" fill="red"/>')
        elif "key" in g or "text" in g or "open_app" in g:
            label = g.get("key") or (f"type {g['text']!r}" if "text" in g
                                     else f"open {g['open_app']}")
            font = h / 40
            parts.append(f'<rect x="0" y="{h - font * 2.2:.0f}" width="{w}" '
                         f'height="{font * 2.2:.0f}" fill="rgba(255,0,0,.75)"/>'
                         f'<text x="{w / 2:.0f}" y="{h - font * 0.7:.0f}" font-size="{font:.0f}" '
                         f'fill="white" text-anchor="middle" font-family="sans-serif">'
                         f'{_e(label)}</text>')
    defs = (f'<defs><marker id="arrow{uid}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" '
            'markerHeight="4" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
            'fill="red"/></marker></defs>')
    return (f'<svg viewBox="0 0 {w} {h}" preserveAspectRatio="none" '
            f'xmlns="http://www.w3.org/2000/svg">{defs}{"".join(parts)}</svg>')


def _shot(report: Report, relative: str | None, overlay: str, alt: str) -> str:
    if not relative or not (report.run_dir / relative).is_file():
        return '<div class="shot meta">no screenshot saved (<code>bmoca eval --save-screens</code>)</div>'
    src = Path(os.path.relpath(report.run_dir / relative, report.out / "episodes")).as_posix()
    return f'<div class="shot"><img src="{_e(src)}" alt="{_e(alt)}">{overlay}</div>'


def _call_html(call: Any) -> str:
    if not isinstance(call, dict):
        return f"<pre>{_e(call)}</pre>"
    facts = ", ".join(f"{k} {_e(call.get(k))}" for k in ("provider", "model", "input_tokens",
                                                          "output_tokens", "cost_usd", "cached",
                                                          "latency_s") if k in call)
    return (f'<p class="meta">model call: {facts}</p>'
            f"<p>model answer:</p><pre>{_e(call.get('response'))}</pre>"
            f"<details><summary>prompt</summary><pre>{_e(call.get('prompt'))}</pre></details>")


def episode_html(report: Report, store: Store, e: EpisodeRow, prev_id: int | None,
                 next_id: int | None) -> str:
    from bmoca import tasks

    try:
        goal = tasks.get(e.task_id).goal
    except tasks.TaskError:
        goal = ""
    nav = ['<p><a href="../report.html">report</a>']
    if prev_id is not None:
        nav.append(f' · <a href="{prev_id}.html">previous episode</a>')
    if next_id is not None:
        nav.append(f' · <a href="{next_id}.html">next episode</a>')
    nav.append("</p>")
    body = ["".join(nav), f"<h1>Episode {e.episode_id}: {_e(e.task_id)}</h1>",
            f"<p>{_e(goal)}</p>", "<table>"]
    facts = [("agent", e.agent), ("run", e.run_id), ("configuration", e.config_id),
             ("repeat", e.repeat), ("seed", e.seed), ("status", e.status),
             ("success", e.success), ("steps", e.steps), ("invalid actions", e.invalid_actions),
             ("truncated", e.truncated), ("wall time (s)",
                                          None if e.wall_s is None else f"{e.wall_s:.2f}")]
    body += [f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in facts]
    body.append("</table>")
    if e.error:
        body += ["<h2>Infrastructure error (excluded from rates)</h2>",
                 f'<pre class="err">{_e(e.error)}</pre>']
    trace = e.detector_trace
    body += ["<h2>Success detector</h2>",
             f"<pre>{_e(chr(10).join(map(str, trace)) if isinstance(trace, list) else trace)}"
             "</pre>", "<h2>Steps</h2>"]
    calls = _agent_outputs(store.path, e.episode_id)
    for s in store.steps_of(e.episode_id):
        status = "valid" if s.valid else f"invalid: {s.error}"
        body.append('<div class="step">')
        body.append(_shot(report, s.screenshot, _overlay(s.info, str(s.step)), f"step {s.step}"))
        body.append(f"<div><h3>Step {s.step}: {_e(s.action_label or '(unparsed)')}</h3>"
                    f'<p class="meta">{_e(status)}; success after the step: {_e(s.success)}; '
                    f"agent {_e(None if s.agent_s is None else round(s.agent_s, 3))} s, "
                    f"environment {_e(None if s.step_s is None else round(s.step_s, 3))} s</p>"
                    f"<p>action as the agent gave it:</p><pre>{_e(s.action)}</pre>")
        if s.step in calls:
            body.append(_call_html(calls[s.step]))
        body.append("</div></div>")
    final = f"screens/{e.episode_id}/final.png"
    if (report.run_dir / final).is_file():
        body += ["<h2>Final screen</h2>", _shot(report, final, "", "final screen")]
    return _page(f"episode {e.episode_id}: {e.task_id}", body)


# -- building ----------------------------------------------------------------------------


def _plots(report: Report) -> None:
    from bmoca.eval import plots

    if not report.sections:
        return
    series = {s.agent: s for s in report.sections}
    configs = sorted({c for s in report.sections for c in s.table.configs}, key=metrics._natural)
    task_ids = sorted({t for s in report.sections for t in s.table.tasks}, key=metrics._natural)
    cats = list(dict.fromkeys(c for s in report.sections for c in s.categories))
    plot_dir = report.out / "plots"
    try:
        plots.grouped_bars(plot_dir / "success_by_config.png", configs,
                           {a: s.table.per_config for a, s in series.items()},
                           title="Success rate per configuration (all tasks)",
                           xlabel="configuration")
        plots.grouped_bars(plot_dir / "success_by_task.png", task_ids,
                           {a: s.table.per_task for a, s in series.items()},
                           title="Success rate per task (all configurations)", xlabel="task",
                           labels=[plots.short(t) for t in task_ids])
        plots.grouped_bars(plot_dir / "success_by_category.png", cats,
                           {a: s.categories for a, s in series.items()},
                           title="Success rate per category", xlabel="category")
    except plots.PlotsUnavailable as exc:
        report.plot_note = f"Plots skipped: {exc}"
        return
    report.plots = list(PLOTS)
    report.curve_plots = [learning_curves.plot(c, plot_dir) for c in report.curves]


def build(run_dir: str | Path, out: str | Path | None = None, *, with_plots: bool = True,
          curves: Sequence[str | Path] = ()) -> Report:
    """Write report.md, report.html, episodes/*.html and plots/*.png; return the Report.

    `curves`: RL learning curves to show beside the results, besides those found next to the
    checkpoints the run's agents load (`bmoca.eval.curves.beside_checkpoint`)."""
    run_dir = Path(run_dir)
    db_path = run_dir / FILENAME if run_dir.is_dir() else run_dir
    if not db_path.is_file():
        raise ReportError(f"no results store at {db_path}: give the run directory of a "
                          "`bmoca eval` (it holds results.sqlite)")
    run_dir = db_path.parent
    out = Path(out) if out is not None else run_dir / "report"
    try:
        store = Store(db_path)
    except StoreError as exc:
        raise ReportError(str(exc)) from None
    with store:
        episodes = store.episodes()
        if not episodes:
            raise ReportError(f"{db_path} holds no episodes yet")
        has_usage, usage = _usage_rows(db_path)
        invalid_of = {e.episode_id: _invalid(e, [] if e.invalid_actions is not None
                                                 else store.steps_of(e.episode_id))
                      for e in episodes}
        recorded = any(v.get("input_tokens") is not None or v.get("cost_usd") is not None
                       for v in usage.values())
        report = Report(run_dir, out, store.runs(), _sections(episodes, usage, invalid_of),
                        has_usage=has_usage and recorded)
        references = progress.load_references(store)
        report.efficiency = {s.agent: progress.score_store(store, s.agent, None, references,
                                                           s.table.tasks)
                             for s in report.sections}
        report.factors = [t for t in (factors.analyse(s.episodes) for s in report.sections) if t]
        report.harm = harm.count(store, episodes)
        if report.factors and with_plots and not report.plot_note:
            report.factor_plots = factors.plot(report.factors, out / "plots")
        report.curves = _load_curves(report.runs, curves)
        (out / "episodes").mkdir(parents=True, exist_ok=True)
        if with_plots:
            _plots(report)
        for s in report.sections:
            ids = [e.episode_id for e in s.episodes]
            for i, e in enumerate(s.episodes):
                page = episode_html(report, store, e, ids[i - 1] if i else None,
                                    ids[i + 1] if i + 1 < len(ids) else None)
                _write(out / "episodes" / f"{e.episode_id}.html", page)
    _write(report.markdown, to_markdown(report))
    _write(report.html, to_html(report))
    if report.factors:
        _write(out / "factors.md", factors.page_markdown(report.factors, report.factor_plots))
        _write(out / "factors.html", _factors_html(report))
    return report


def _load_curves(runs: Sequence[RunRow], named: Sequence[str | Path]
                 ) -> list[learning_curves.Curve]:
    """The curves named, then those beside the runs' checkpoints, each file once."""
    paths = [Path(p) for p in named]
    paths += [p for p in (learning_curves.beside_checkpoint(r.agent) for r in runs) if p]
    loaded: list[learning_curves.Curve] = []
    for path in dict.fromkeys(p.resolve() for p in paths):
        try:
            curve = learning_curves.load(path)
        except learning_curves.CurveError as exc:
            raise ReportError(str(exc)) from None
        if any(c.name == curve.name for c in loaded):
            curve.name = f"{curve.name} ({len(loaded) + 1})"
        loaded.append(curve)
    return loaded


def _factors_html(report: Report) -> str:
    """The factor page: per agent the drop each factor causes, then a plot per factor."""
    body = ['<p><a href="report.html">back to the report</a></p>',
            "<h1>Which factor breaks an agent</h1>", f'<p class="meta">{_e(factors.CAPTION)}</p>']
    for t in report.factors:
        body += [f"<h2>Agent <code>{_e(t.agent)}</code></h2>",
                 f"<p>bases: {_e(', '.join(t.bases))}</p>", _html_table(*factors.rows(t))]
    body += [f'<img class="plot" src="plots/{_e(n)}.png" alt="{_e(n)}">'
             for n in report.factor_plots]
    return _page(f"bmoca factors: {report.run_dir.name}", body)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


__all__ = ["Report", "ReportError", "Section", "Usage", "build"]
