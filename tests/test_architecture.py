"""The package's shape stays true: layers import only downward, no module imports itself
back through others, and no source file grows past 800 lines (DESIGN.md §4).

Every import counts: at module level, inside functions, and under `TYPE_CHECKING`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bmoca"
MAX_LINES = 800

LAYERS: tuple[tuple[str, ...], ...] = (
    # bottom: Android's artefacts and the device contract, which the simulator implements,
    # and the byte-bounded cache every layer's caches use (standard library only)
    ("bmoca.formats", "bmoca.assets", "bmoca.device.contract", "bmoca.device.config",
     "bmoca.device.limits", "bmoca.device.backends", "bmoca.bytecache"),
    # the simulated phone, from its UI toolkit up to the device object
    ("bmoca.sim.ui", "bmoca.sim.i18n"),
    ("bmoca.sim.system",),
    ("bmoca.sim.render",),
    ("bmoca.sim.apps",),
    ("bmoca.sim.frame",),
    ("bmoca.sim.shell",),
    ("bmoca.sim.device", "bmoca.sim"),
    ("bmoca.sim.adb",),  # the simulated phone as an ADB device, above the phone itself
    # everything above the phone reaches it through the device layer
    ("bmoca.device",),
    ("bmoca.configs",),
    ("bmoca.tasks",),
    ("bmoca.env", "bmoca"),
    ("bmoca.demos",),
    # training reads demonstrations; the agents load what it trains (bc:CHECKPOINT)
    ("bmoca.train",),
    ("bmoca.agents",),
    ("bmoca.hubs",),  # the tasks as RL hubs' environments, prompted as the LLM agents are
    ("bmoca.eval", "bmoca.demos.generate"),
    ("bmoca.ui",),  # the web page plays, records and browses runs: above eval, below cli
    ("bmoca.cli", "bmoca.__main__"),  # `python -m bmoca` is the command line
)
"""Bottom to top; a module belongs to the layer of its longest matching prefix."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The bmoca modules `name` imports, wherever the import statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                found.add(submodule if submodule in MODULES else module)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def layer_of(module: str) -> int:
    best, rank = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    return rank


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_module_has_a_layer():
    assert [m for m in MODULES if layer_of(m) < 0] == []


def test_layers_import_only_downward():
    upward = [f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
              for module, targets in sorted(GRAPH.items()) for target in sorted(targets)
              if layer_of(target) > layer_of(module)]
    assert upward == []


def test_no_import_circles():
    assert _cycles(GRAPH) == []


def test_the_checks_catch_what_they_forbid():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    assert layer_of("bmoca.sim.apps.clock.model") < layer_of("bmoca.sim.device")
    assert layer_of("bmoca.device.contract") < layer_of("bmoca.sim.system.server")
    assert layer_of("bmoca.device") > layer_of("bmoca.sim.device")


def test_the_shell_and_the_apps_do_not_reach_into_the_device():
    for module, targets in GRAPH.items():
        if module.startswith(("bmoca.sim.shell", "bmoca.sim.apps", "bmoca.sim.system")):
            assert "bmoca.sim.device" not in targets, module


def test_the_device_factory_names_no_backend_by_import():
    """Backends register themselves (`bmoca.device.backends`): the factory, the registry
    and the adb backend import nothing of the simulator."""
    for module in ("bmoca.device", "bmoca.device.backends", "bmoca.device.adb"):
        assert [t for t in GRAPH[module] if t.startswith("bmoca.sim")] == [], module


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_file_over_800_lines(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{MODULES[name]} has {lines} lines"
