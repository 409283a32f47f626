"""The speed-ups change no output: every reuse path is compared, byte for byte, with the
path that builds everything from scratch (`SimDevice.reuse_layout = False`, the pure-Python
YAML parser, a full pickle of the state), along expert and random episodes."""

from __future__ import annotations

import abc
import collections
import copy
import dataclasses
import datetime as dt
import enum
import hashlib
import pickle
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
import yaml
from conftest import assert_same_outputs

import bmoca
from bmoca import configs, tasks
from bmoca.agents import ExpertAgent, RandomAgent
from bmoca.configs import _FastLoader, _Loader
from bmoca.device import connect
from bmoca.env import DevicePool
from bmoca.formats import yamlload
from bmoca.sim.system.statecopy import Checkpoint, Fingerprinter, dumps
from bmoca.tasks.loader import _FastYamlLoader, _YamlLoader

PACKAGE = Path(str(resources.files("bmoca")))


# -- YAML ---------------------------------------------------------------------------------

def test_the_c_parser_is_there_to_be_used():
    assert yamlload.FastSafeLoader is yaml.CSafeLoader, "PyYAML without libyaml: cold start slow"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.yaml")), ids=lambda p: p.name)
def test_every_data_file_parses_to_the_same_objects(path):
    text = path.read_text("utf-8")
    fast, slow = {"configs": (_FastLoader, _Loader), "tasks": (_FastYamlLoader, _YamlLoader)}.get(
        path.parent.parent.name if path.parent.name == "data" else "",
        (yamlload.FastSafeLoader, yaml.SafeLoader))
    assert yamlload.load(text, fast, slow) == yaml.load(text, Loader=slow)  # noqa: S506


def test_a_yaml_error_reads_as_the_pure_python_parser_words_it():
    bad = "a: [1, 2\nb: 3\n"
    with pytest.raises(yaml.YAMLError) as reference:
        yaml.load(bad, Loader=yaml.SafeLoader)  # noqa: S506
    with pytest.raises(yaml.YAMLError) as ours:
        yamlload.load(bad)
    assert str(ours.value) == str(reference.value)


# -- state fingerprints and checkpoints ----------------------------------------------------

@pytest.fixture(scope="module")
def phone():
    return connect("sim", configs.get("test_env_100"))


def _full_pickle_digest(state) -> bytes:
    shallow = copy.copy(state)
    shallow.clock = None
    return hashlib.blake2b(pickle.dumps(shallow), digest_size=16).digest()


def test_the_fingerprint_changes_exactly_when_the_full_pickle_does(phone):
    state = phone.system.state
    prints = Fingerprinter()
    first, reference = prints.fingerprint(state), _full_pickle_digest(state)
    state.clock.advance(5000)
    assert prints.fingerprint(state) == first and _full_pickle_digest(state) == reference
    path = "/sdcard/Download/notes.txt"
    state.vfs.write(path, b"one")
    after_write = prints.fingerprint(state)
    assert after_write != first
    state.vfs.write(path, b"one")  # the same bytes again: a new object, the same state
    assert prints.fingerprint(state) == after_write
    state.vfs.write(path, b"two")
    assert prints.fingerprint(state) not in (first, after_write)
    state.vfs.remove(path)
    assert prints.fingerprint(state) == first
    state.settings.put("system", "screen_brightness", "7")
    assert prints.fingerprint(state) != first


def test_log_lines_count_in_the_fingerprint_as_they_did_in_the_full_pickle(phone):
    state = phone.system.state
    running = Fingerprinter()
    running.fingerprint(state)
    state.logs.write(state.clock.now_ms, 1, 1, "I", "Test", "one")
    with_one = running.fingerprint(state)
    assert with_one == Fingerprinter().fingerprint(state), "incremental = from scratch"
    state.logs.write(state.clock.now_ms, 1, 1, "I", "Test", "two\nthree")
    assert running.fingerprint(state) not in (with_one, None)
    assert running.fingerprint(state) == Fingerprinter().fingerprint(state)
    for _ in range(2):
        state.logs.entries.pop()
    state.logs.serial -= 2
    assert running.fingerprint(state) == with_one, "the lines taken back: as before"
    state.logs.clear()
    assert running.fingerprint(state) == Fingerprinter().fingerprint(state)


class _Colour(enum.Enum):
    RED = 1


class _Abstract(abc.ABC):
    @abc.abstractmethod
    def run(self) -> None: ...


@dataclasses.dataclass(slots=True)
class _Slotted:
    x: int = 0


@dataclasses.dataclass
class _Plain:
    x: int = 0
    more: dict = dataclasses.field(default_factory=dict)


def test_the_fast_pickler_writes_the_bytes_pickle_writes():
    """Its shortcut is for plain objects only: hooks, slots, metaclasses, containers and
    the copyreg table reduce as they do without it."""
    tricky = [_Colour.RED, _Colour, _Abstract, _Slotted(2), _Plain(), _Plain(3, {"c": _Colour.RED}),
              collections.deque([1, 2], maxlen=4), collections.OrderedDict(a=1),
              dt.datetime(2020, 1, 2, 3, 4), complex(1, 2), len, {1, 2}, [_Plain(), _Plain()]]
    for value in tricky:
        assert dumps(value) == pickle.dumps(value, pickle.HIGHEST_PROTOCOL), value
    for config in ("train_env_000", "test_env_105", "test_env_109"):
        device = connect("sim", configs.get(config))
        device.shell("am start -n com.android.settings/.Settings")
        device.dump_hierarchy()
        state = device.system.state
        assert dumps(state) == pickle.dumps(state, pickle.HIGHEST_PROTOCOL), config


def test_a_checkpoint_sees_file_and_setting_changes_and_puts_them_back(phone):
    state = phone.system.state
    path = "/sdcard/Download/keep.txt"
    state.vfs.write(path, b"before")
    brightness = state.settings.get("system", "screen_brightness")
    point = Checkpoint(state)
    assert not point.changed(state)
    state.vfs.write(path, b"after")
    assert point.changed(state)
    state.settings.put("system", "screen_brightness", "3")
    restored = point.restore(state.logs)
    assert restored.vfs.read(path) == b"before"
    assert restored.settings.get("system", "screen_brightness") == brightness
    assert restored.logs is state.logs


def test_a_checkpoint_tells_a_change_as_the_full_pickle_does(phone):
    """The activity manager's counts are a shortcut: where they differ, the pickles do."""
    def full(state) -> bytes:
        shallow = copy.copy(state)
        shallow.logs = None
        return pickle.dumps((shallow, sorted(state.vfs.files.items())), pickle.HIGHEST_PROTOCOL)

    commands = [lambda: phone.shell("am start -n com.android.settings/.Settings"),
                lambda: phone.shell("am start -n com.android.settings/.Settings"),
                lambda: phone.press("BACK"), lambda: phone.press("HOME"), lambda: None,
                lambda: phone.shell("am start -a android.intent.action.MAIN "
                                    "-c android.intent.category.HOME"),
                lambda: phone.shell("am force-stop com.android.settings"),
                lambda: phone.shell("am start -n com.android.settings/.Settings")]
    seen = set()
    for command in commands:
        state = phone.system.state
        point, before = Checkpoint(state), full(state)
        command()
        state = phone.system.state
        assert point.changed(state) == (full(state) != before)
        seen.add(point.changed(state))
    assert seen == {True, False}


def test_a_failing_command_rolls_back_a_file_it_wrote(phone, monkeypatch):
    phone.push(b"original", "/sdcard/Download/x.txt")

    def broken(dark: bool) -> None:
        phone.system.state.vfs.write("/sdcard/Download/x.txt", b"half-written")
        raise RuntimeError("boom")

    monkeypatch.setattr(phone.system, "set_night_mode", broken)
    out, code = phone.shell("cmd uimode night yes")
    assert code == 255 and "internal error" in out
    assert phone.pull("/sdcard/Download/x.txt") == b"original"


# -- frames: layout, dump and screenshot reuse ------------------------------------------

CONFIGS = ("test_env_100", "test_env_109", "train_env_026")
"""mdpi Arabic (RTL), xxhdpi Chinese in dark theme, the default Pixel 3."""
TASKS = ("settings/turn_on_airplane_mode", "clock/create_alarm_at_06:30_am",
         "calculator/input_square_root_of_25_in_Calculator", "phone/call_123-4578")
"""A switch and a list, the time picker's dial and the keyboard, a keypad, the dialer."""


def _episode(task, config: str, agent, seed: int, reuse: bool, step_limit: int | None) -> list:
    """Every observation, reward, flag and info of an episode, with the full-size dump and
    screenshot at every step."""
    pool = DevicePool()
    device = pool.get(configs.get(config))
    device.reuse_layout = reuse
    env = bmoca.make(task, config, device=pool, observation=("pixels", "xml", "text", "som"),
                     action=agent.action_mode, step_limit=step_limit)
    obs, _ = env.reset(seed=seed)
    agent.reset(env.goal, seed=seed)
    seen = []
    while True:
        seen.append((obs, device.dump_hierarchy(), device.screenshot()))
        obs, reward, terminated, truncated, info = env.step(agent.act(obs))
        seen.append((reward, terminated, truncated, info))
        if terminated or truncated:
            seen.append((obs, device.dump_hierarchy(), device.screenshot()))
            return seen


@pytest.mark.parametrize("config", CONFIGS)
def test_expert_episodes_look_and_dump_the_same_with_reuse(config):
    for task_id in TASKS:
        task = tasks.get(task_id)
        fresh = _episode(task, config, ExpertAgent(task), 0, reuse=False, step_limit=None)
        reused = _episode(task, config, ExpertAgent(task), 0, reuse=True, step_limit=None)
        assert_same_outputs(fresh, reused, f"{task_id}@{config}")
        assert fresh[-2][3]["success"], f"the expert should solve {task_id} in {config}"


@pytest.mark.parametrize("config", CONFIGS)
def test_random_episodes_look_and_dump_the_same_with_reuse(config):
    """Random taps, swipes and keys: inert spots, ends of lists, keys with no handler."""
    task = tasks.get(TASKS[0])
    fresh = _episode(task, config, RandomAgent("discrete"), 7, reuse=False, step_limit=30)
    reused = _episode(task, config, RandomAgent("discrete"), 7, reuse=True, step_limit=30)
    assert_same_outputs(fresh, reused, config)
    no_effect = sum(1 for item in reused if len(item) == 4 and item[3].get("no_effect"))
    assert no_effect, "a random episode should have steps that change nothing"


def test_transplant_gives_each_view_the_bounds_of_its_counterpart():
    from bmoca.sim.ui.signature import placed, signature, transplant
    from bmoca.sim.ui.view import column, row, text

    def tree():
        return column(text("a"), row(text("b"), column(text("c")), text("d")), text("e"))

    def pairs(a, b):
        yield a, b
        for x, y in zip(a.children, b.children, strict=True):
            yield from pairs(x, y)

    laid, fresh = tree(), tree()
    laid_views, fresh_views = [], []
    assert signature(laid, laid_views) == signature(fresh, fresh_views)
    for n, view in enumerate(laid_views):
        view.bounds, view.clip = (n, n + 1, n + 2, n + 3), (n, n, n + 1, n + 1)
    transplant(placed(laid_views), fresh_views)
    assert all(x.bounds == y.bounds and x.clip == y.clip for x, y in pairs(laid, fresh))
    other: list = []
    signature(column(text("a")), other)
    with pytest.raises(ValueError):
        transplant(placed(laid_views), other)


def test_hit_test_finds_what_the_recursive_walk_found():
    """The loop visits the views in the recursive walk's order: the same view under every
    point of the launcher, the app drawer and Settings."""
    from bmoca.sim.device import hit_test

    def recursive(root, x, y, want):
        found = None

        def visit(view):
            nonlocal found
            left, top, right, bottom = view.clip
            if not (left <= x < right and top <= y < bottom):
                return
            if want(view):
                found = view
            for child in view.children:
                if child.visible:
                    visit(child)

        visit(root)
        return found

    def touches(v):
        return v.enabled and (v.on_click is not None or v.on_long_click is not None
                              or v.on_text is not None or v.on_drag is not None)

    device = connect("sim", configs.get("train_env_000"))
    width, height = device.screen_size()
    screens = [lambda: None,
               lambda: device.swipe(width // 2, int(height * 0.8), width // 2,
                                    int(height * 0.2), 300),
               lambda: device.shell("am start -n com.android.settings/.Settings")]
    for show in screens:
        show()
        root = device.frame.active.root
        for x in range(0, width, 37):
            for y in range(0, height, 41):
                assert hit_test(root, x, y) is recursive(root, x, y, touches)
                scrolls = lambda v: v.scrollable  # noqa: E731
                assert hit_test(root, x, y, want=scrolls) is recursive(root, x, y, scrolls)


def test_a_home_screen_gone_from_the_frames_is_freed_without_the_collector():
    """The launcher's icons read their clip through `clip_of`, not through themselves:
    no reference cycle keeps a home screen once no frame or recent window shows it, and
    a tap on an icon still opens its app from the icon's box."""
    import gc
    import weakref

    from bmoca.sim.ui.view import clip_of, text

    view = text("a")
    view.clip = (1, 2, 3, 4)
    assert clip_of(view)() == (1, 2, 3, 4)
    device = connect("sim", configs.get("test_env_100"))
    device.dump_hierarchy()
    home = weakref.ref(device.frame.active.root)
    gc.disable()
    try:
        for _ in range(3):
            device.shell("am start -n com.android.settings/.Settings")
            device.dump_hierarchy()
            device.press("HOME")
            device.dump_hierarchy()
        assert home() is None
    finally:
        gc.enable()
    icon = next(v for v in device.frame.active.root.walk()
                if v.image == "app:com.google.android.deskclock")
    device.tap(*icon.center)
    assert device.frame.active.package == "com.google.android.deskclock"
    assert device.system.state.am.foreground.records[-1].intent.bounds == icon.clip


def test_an_unchanged_screen_is_laid_out_once():
    """The reuse really happens: a tap on an inert spot keeps the layout and the dump."""
    device = connect("sim", configs.get("test_env_100"))
    device.shell("am start -n com.android.settings/.Settings")
    before = device.frame.windows[0]
    xml = device.dump_hierarchy()
    width, _ = device.screen_size()
    device.tap(width // 2, device.frame.status_bar_px // 2)  # the status bar: inert
    after = device.frame.windows[0]
    assert after.key == before.key
    assert device.dump_hierarchy() is xml


def test_recent_windows_keep_no_views_but_the_dump_made_after_them():
    """A window's tree is freed once no frame shows it (the recent windows hold no view:
    reference counting frees it, the collector switched off); its dump, made after it was
    kept, is still found by a later window of the same key."""
    import gc
    import weakref

    device = connect("sim", configs.get("test_env_100"))
    home = device.dump_hierarchy()
    device.shell("am start -n com.android.settings/.Settings")
    device.dump_hierarchy()
    settings = weakref.ref(device.frame.active.root)
    gc.disable()
    try:
        device.press("BACK")
        device.dump_hierarchy()
        assert settings() is None
    finally:
        gc.enable()
    device.press("HOME")
    assert device.dump_hierarchy() is home


def test_a_screen_seen_a_few_inputs_ago_takes_its_layout_and_dump_again():
    """Home, Settings, home, Settings, home: the home screen is not laid out or dumped anew,
    and every dump on the way (the app drawer too) is what a phone building from scratch
    dumps."""
    def walk(device) -> list:
        width, height = device.screen_size()
        dumps = [device.dump_hierarchy()]
        for step in (lambda: device.shell("am start -n com.android.settings/.Settings"),
                     lambda: device.press("HOME"),
                     lambda: device.shell("am start -n com.android.settings/.Settings"),
                     lambda: device.press("HOME"),
                     lambda: device.swipe(width // 2, int(height * 0.8), width // 2,
                                          int(height * 0.2), 300),
                     lambda: device.press("HOME")):
            step()
            dumps.append(device.dump_hierarchy())
        return dumps

    reused = connect("sim", configs.get("test_env_109"))
    fresh = connect("sim", configs.get("test_env_109"))
    fresh.reuse_layout = False
    seen, expected = walk(reused), walk(fresh)
    assert seen == expected
    assert seen[2] is seen[0] and seen[4] is seen[0], "home was dumped again"
    assert seen[1] != seen[0] and seen[5] != seen[0] and seen[6] == seen[0]


def _settings_walk(device) -> list:
    """Open Settings, scroll down and up, open a page, go back: every dump on the way."""
    width, height = device.screen_size()
    steps = [lambda: device.shell("am start -n com.android.settings/.Settings"),
             lambda: device.swipe(width // 2, int(height * 0.7), width // 2, int(height * 0.3), 300),
             lambda: device.swipe(width // 2, int(height * 0.3), width // 2, int(height * 0.7), 300),
             lambda: device.tap(width // 2, int(height * 0.5)),
             lambda: device.press("BACK")]
    seen = []
    for step in steps:
        step()
        seen.append(device.dump_hierarchy())
    return seen


def test_measured_sizes_are_kept_across_frames_and_shared_between_displays():
    """Phones of different displays, interleaved, share one cache of measured and arranged
    subtrees and dump what phones laying everything out afresh dump; a scroll measures no
    row again."""
    from bmoca.sim.ui.sizes import SHARED

    fresh = {}
    for config in CONFIGS:
        device = connect("sim", configs.get(config))
        device.reuse_layout = False
        fresh[config] = _settings_walk(device)
    phones = {config: connect("sim", configs.get(config)) for config in CONFIGS}
    for config in CONFIGS + CONFIGS:
        assert _settings_walk(phones[config]) == fresh[config], config
    device = phones[CONFIGS[0]]
    width, height = device.screen_size()
    known = len(SHARED.nodes)
    device.swipe(width // 2, int(height * 0.7), width // 2, int(height * 0.3), 300)
    device.dump_hierarchy()
    assert len(SHARED.nodes) == known, "a scroll moves rows but changes none of them"


def test_scaling_the_painted_image_gives_the_bytes_scaling_the_array_gives():
    from bmoca.env import observations as obs

    device = connect("sim", configs.get("test_env_109"))
    device.shell("am start -n com.android.settings/.Settings")
    shot = device.screenshot()
    image = device.image_of(shot)
    assert image is not None and device.image_of(shot.copy()) is None
    elements = list(obs.translate(device.dump_hierarchy()))
    for size in ((128, 256), (1080, 2160), (333, 517)):
        assert obs.resize(image, size).tobytes() == obs.resize(shot, size).tobytes()
        marked = obs.set_of_marks(image, elements, size)
        assert marked.tobytes() == obs.set_of_marks(shot, elements, size).tobytes()
    assert np.asarray(image).tobytes() == shot.tobytes(), "marks are never drawn on it"


def _pixel_episode(task, config: str, agent, seed: int, painted: bool, observation) -> list:
    """Every observation, reward, flag, info and rendered frame of an episode; `painted`
    False hides the phone's painted image from the env, which then scales and compares
    the screenshot arrays, as it does for a real phone."""
    pool = DevicePool()
    device = pool.get(configs.get(config))
    if not painted:
        device.screen_image = lambda: None
    env = bmoca.make(task, config, device=pool, observation=observation,
                     action=agent.action_mode, step_limit=25, render_mode="rgb_array")
    obs, _ = env.reset(seed=seed)
    agent.reset(env.goal, seed=seed)
    seen = [(obs, env.render())]
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs))
        seen.append((obs, env.render(), reward, terminated, truncated, info))
        if terminated or truncated:
            return seen


@pytest.mark.parametrize("config", CONFIGS)
def test_observations_scaled_from_the_painted_image_are_those_of_the_array(config):
    """Pixels, marks, renders and `no_effect` from the painted image (no full-size array
    unless asked) equal those from the screenshot arrays, along random and expert play."""
    task = tasks.get(TASKS[0])
    plays = [(RandomAgent("discrete"), 3, ("pixels",)),
             (RandomAgent("discrete"), 4, ("pixels", "text", "som")),
             (ExpertAgent(task), 0, ("pixels", "xml")),
             (ExpertAgent(task), 0, ("som", "xml"))]
    for agent, seed, observation in plays:
        plain = _pixel_episode(task, config, agent, seed, False, observation)
        painted = _pixel_episode(task, config, agent, seed, True, observation)
        assert_same_outputs(plain, painted, f"{config} {observation} {agent.name}")
        steps = [item for item in painted if len(item) == 6]
        assert any(item[5].get("no_effect") for item in steps) or agent.name != "random"


def test_text_kept_for_the_same_dump_is_the_text_of_that_dump():
    """The env translates and describes a dump once while the screen stands; every step's
    text is still what the translator makes of that step's hierarchy."""
    from bmoca.env import observations as obs

    for config, bbox in (("test_env_109", False), ("test_env_106", True)):
        env = bmoca.make(TASKS[0], config, observation=("text", "xml"), action="discrete",
                         step_limit=40, text_bbox=bbox)
        agent = RandomAgent("discrete")
        seen, _ = env.reset(seed=11)
        agent.reset(env.goal, seed=11)
        width, height = env.device.screen_size()
        kept = 0
        while True:
            expected = obs.describe(obs.translate(seen["xml"]), width, height, bbox=bbox)
            assert seen["text"] == expected
            xml = seen["xml"]
            seen, _, terminated, truncated, _ = env.step(agent.act(seen))
            kept += seen["xml"] is xml
            if terminated or truncated:
                break
        assert kept, "some steps should keep the dump"


def test_marks_pasted_from_drawn_labels_are_the_marks_drawn_in_place(monkeypatch):
    """A tag's label is drawn once and pasted; drawing every one in place gives the same
    bytes, on screens of three displays at sizes down to ones that clip the labels."""
    from bmoca.env import observations as obs

    cases = []
    for config in CONFIGS:
        device = connect("sim", configs.get(config))
        for command in ("am start -n com.android.settings/.Settings",
                        "am start -a com.android.deskclock.action.START_STOPWATCH"):
            device.shell(command)
            cases.append((device.screen_image(), list(obs.translate(device.dump_hierarchy()))))
    sizes = ((256, 512), (128, 256), (333, 517), (1080, 2160), (24, 40), (9, 12))
    pasted = [obs.set_of_marks(image, elements, size).tobytes()
              for image, elements in cases for size in sizes]
    assert obs._label.cache_info().currsize, "labels were drawn once"
    labels = obs._label
    monkeypatch.setattr(obs, "_label", lambda *key: (*labels(*key)[:4], None))
    drawn = [obs.set_of_marks(image, elements, size).tobytes()
             for image, elements in cases for size in sizes]
    assert pasted == drawn


def test_a_screen_image_stands_and_its_array_is_the_screenshot():
    from PIL import Image

    device = connect("sim", configs.get("test_env_105"))
    device.shell("am start -n com.android.settings/.Settings")
    image = device.screen_image()
    assert device.screen_image() is image, "the same image while the screen stands"
    shot = device.screenshot_of(image)
    assert device.screenshot() is shot and device.image_of(shot) is image
    assert shot.tobytes() == np.asarray(image).tobytes() and not shot.flags.writeable
    own = device.screenshot_image()
    assert own is not image and own.tobytes() == Image.fromarray(shot).tobytes()
    del image, own
    assert device.screen_image() is device.image_of(shot), "its array keeps the image"
    width, height = device.screen_size()
    device.swipe(width // 2, int(height * 0.7), width // 2, int(height * 0.3), 300)
    moved = device.screen_image()
    assert moved is not device.image_of(shot) and device.screenshot_of(moved) is not shot


def test_two_screens_are_the_same_exactly_when_their_pixels_are():
    from PIL import Image

    from bmoca.env.environment import _same_pixels

    device = connect("sim", configs.get("test_env_100"))
    image = device.screen_image()
    twin = image.copy()
    assert _same_pixels(image, twin) and _same_pixels(image, np.asarray(twin))
    for x, y in ((0, 0), (image.width - 1, image.height - 1), (500, 1000)):
        other = image.copy()
        r, g, b = other.getpixel((x, y))
        other.putpixel((x, y), (r, g, b ^ 1))
        assert not _same_pixels(image, other), (x, y)
        assert not _same_pixels(np.asarray(image), np.asarray(other)), (x, y)
    assert not _same_pixels(image, image.crop((0, 0, image.width, image.height - 1)))
    assert not _same_pixels(image, Image.new("RGB", image.size))


def _blended_fill(canvas, box, color) -> None:
    """Canvas._fill as it was: a translucent fill blends the region with a full overlay."""
    from PIL import Image

    alpha = color[3] if len(color) == 4 else 255
    if alpha >= 255:
        canvas.image.paste(tuple(color[:3]), box)
    elif alpha > 0:
        region = canvas.image.crop(box)
        overlay = Image.new("RGB", region.size, tuple(color[:3]))
        canvas.image.paste(Image.blend(region, overlay, alpha / 255), box)


def test_translucent_fills_through_the_blend_table_are_the_blend(monkeypatch):
    from PIL import Image

    from bmoca.sim.render.painter import Canvas
    from bmoca.sim.ui.theme import theme

    rng = np.random.default_rng(5)
    noise = Image.fromarray(rng.integers(0, 256, (300, 200, 3), dtype=np.uint8))
    for color in ((0, 0, 0, 128), (0, 0, 0, 160), (255, 255, 255, 24), (12, 200, 77, 1),
                  (90, 30, 250, 254), (1, 2, 3, 0), (4, 5, 6)):
        for box in ((0, 0, 200, 300), (3, 7, 150, 9), (199, 0, 200, 300)):
            ours, theirs = (Canvas(noise.copy(), 1.0, 1.0, theme(False), "en-US", False)
                            for _ in range(2))
            ours._fill(box, color)
            _blended_fill(theirs, box, color)
            assert ours.image.tobytes() == theirs.image.tobytes(), (color, box)
    screens = []
    for blend in (False, True):
        if blend:
            monkeypatch.setattr(Canvas, "_fill", _blended_fill)
        device = connect("sim", configs.get("test_env_109"))
        device.shell("am start -n com.android.settings/.Settings")
        width, height = device.screen_size()
        device.swipe(width // 2, 5, width // 2, height * 2 // 3, 300)  # the shade, over a scrim
        assert device.frame.window("shade") is not None
        screens.append(device.screenshot().tobytes())
    assert screens[0] == screens[1]


def test_a_state_change_the_painter_does_not_read_paints_nothing_again():
    def walk(device) -> list:
        device.shell("am start -n com.android.settings/.Settings")
        shots = [device.screen_image()]
        before = device.state_fingerprint()
        out, code = device.shell("settings put global bmoca_unshown 1")
        assert code == 0, out
        assert device.state_fingerprint() != before
        shots.append(device.screen_image())
        return shots

    reused = walk(connect("sim", configs.get("test_env_106")))
    fresh = connect("sim", configs.get("test_env_106"))
    fresh.reuse_layout = False
    assert reused[1] is reused[0], "a setting no screen shows: the same image"
    assert [i.tobytes() for i in walk(fresh)] == [i.tobytes() for i in reused]


def test_a_new_wallpaper_is_painted_under_the_same_home_screen():
    """The painter reads the wallpaper's file, which no view tree holds."""
    import io

    from PIL import Image

    from bmoca.sim.render.painter import WALLPAPER_PATH

    def walk(device) -> list:
        device.press("HOME")
        shots = [device.screen_image()]
        key = device.frame.windows[0].key
        blob = io.BytesIO()
        Image.new("RGB", device.screen_size(), (200, 30, 90)).save(blob, "PNG")
        device.push(blob.getvalue(), WALLPAPER_PATH)
        shots.append(device.screen_image())
        return [key, device.frame.windows[0].key, *shots]

    key, key_after, old, new = walk(connect("sim", configs.get("test_env_100")))
    assert key_after == key, "the home screen's tree does not hold the wallpaper"
    assert new is not old and new.tobytes() != old.tobytes()
    fresh = connect("sim", configs.get("test_env_100"))
    fresh.reuse_layout = False
    assert walk(fresh)[3].tobytes() == new.tobytes()


def test_a_photo_a_painter_reads_from_the_files_is_painted_again_when_it_changes():
    """Snapseed's thumbnails draw the photo file itself, which no key holds: their screen
    is kept only while the state stands."""
    import io

    from conftest import tap_on
    from nearmiss.snapseed import S, open_snapseed
    from PIL import Image

    from bmoca.sim.apps.snapseed.photo import photos

    def walk(device) -> list:
        open_snapseed(device)
        tap_on(device, resource_id=S + "logo_view")
        shots = [device.screen_image()]
        device.state_fingerprint()  # as an env does after every step
        path = photos(device.server.state.vfs)[0]
        blob = io.BytesIO()
        Image.new("RGB", (64, 48), (250, 20, 20)).save(blob, "JPEG")
        device.system.state.vfs.write(path, blob.getvalue())  # behind the frame's back
        return [*shots, device.screen_image()]

    old, new = walk(connect("sim", configs.get("test_env_100")))
    assert new is not old and new.tobytes() != old.tobytes()
    fresh = connect("sim", configs.get("test_env_100"))
    fresh.reuse_layout = False
    assert walk(fresh)[1].tobytes() == new.tobytes()


def test_the_measure_cache_is_bounded_in_bytes_and_displays():
    from bmoca.sim.ui.sizes import DISPLAYS, NODE_BYTES, MeasureCache
    from bmoca.sim.ui.view import column, text

    cache = MeasureCache(budget=50 * NODE_BYTES)
    sizes = [cache.display(n)[0] for n in range(DISPLAYS + 3)]
    sizes[-1][(0, 1, 1)] = (1, 1)
    assert cache.display(DISPLAYS + 2)[0] is sizes[-1], "the display seen last is kept"
    assert cache.display(0)[0] is not sizes[0], "the display seen first is forgotten"
    numbers: dict[int, int] = {}
    same = [cache.number(column(text("a"), text(str(n % 2))), numbers) for n in range(4)]
    assert same[0] == same[2] != same[1] == same[3], "a number per content"
    for n in range(60):
        cache.number(text(str(n)), numbers)
    assert cache.display(1)[0] == {} and len(cache.nodes) == 0, "full: starts again empty"


def _status_clock(device) -> str:
    bar = device.frame.window("status_bar")
    return next(v.text for v in bar.root.walk() if ":" in v.text)


def test_the_home_screen_stands_while_the_minutes_pass_but_not_past_midnight():
    device = connect("sim", configs.get("test_env_100"))
    home = device.frame.windows[0]
    shown = _status_clock(device)
    inert = (device.screen_size()[0] // 2, device.frame.status_bar_px // 2)
    device.state_fingerprint()  # as an env does after every step
    device.system.state.clock.advance(61_000)
    device.tap(*inert)
    assert device.frame.windows[0] is home, "the launcher shows the date only"
    assert _status_clock(device) != shown, "the status bar's clock moves on"
    device.state_fingerprint()
    device.system.state.clock.advance(24 * 3600 * 1000)
    device.tap(*inert)
    assert device.frame.windows[0] is not home, "a new day: the date on the home screen"


def test_a_running_stopwatch_is_built_again_after_every_input():
    device = connect("sim", configs.get("test_env_100"))
    out, code = device.shell("am start -a com.android.deskclock.action.START_STOPWATCH")
    assert code == 0, out
    running = device.frame
    assert running.reads_clock
    xml = device.dump_hierarchy()
    device.system.state.clock.advance(1500)
    device.tap(device.screen_size()[0] // 2, device.frame.status_bar_px // 2)
    assert device.frame.windows[0] is not running.windows[0]
    assert device.dump_hierarchy() != xml, "the stopwatch's time moved on"


# -- shared_prefs escaping without xml.sax ----------------------------------------------

@pytest.mark.parametrize("text", ["", "plain", "a&b<c>d", 'say "hi"', "it's", "both \" and '",
                                  "tab\there\nnew\rline", "&amp;", "é中文", ">\"<'&"])
def test_shared_prefs_escapes_as_the_standard_library_does(text):
    from xml.sax import saxutils

    from bmoca.formats.shared_prefs import escape, quoteattr

    assert escape(text) == saxutils.escape(text)
    assert quoteattr(text) == saxutils.quoteattr(text)


def test_a_cold_start_does_not_import_the_network_stack():
    import subprocess
    import sys

    code = ("import sys, bmoca; env = bmoca.make('settings/turn_on_airplane_mode', "
            "'test_env_100', observation='xml'); env.reset(seed=0); "
            "print(sorted(m for m in ('ssl', 'http.client', 'urllib.request') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
