"""Policies for behaviour cloning: a visual encoder, a goal encoder, cross-attention, a head.

Two architectures share one policy class (`Policy`):

- `reference`: B-MoCA's (§6.6): EfficientNet-b0 (torchvision; ImageNet weights if the
  user passes a local file, from scratch otherwise) whose 8x4 feature map gives 32 image
  tokens through a linear adapter, a frozen Hugging Face text encoder for the goal
  (`text_encoder`: a local directory, e.g. the all-MiniLM-L6-v2 weights; without one,
  `text_config`: a BERT built from a config, MiniLM-L6's sizes by default, randomly
  initialised and stored in the checkpoint, since nothing is ever downloaded), one-head
  cross-attention with the text tokens as query, mean pooling, a 1024-1024-N MLP head
  (N = 385 discrete, 4 dual gesture).
- `small`: a 4-layer CNN with the same 32 tokens and a trainable hashed bag-of-words goal
  encoder, with a residual around the attention, small enough to train on a CPU in minutes.

Image tokens get a learned position embedding (`positions`, on by default for `small`,
off for `reference` as in the paper): attention and mean pooling are blind to where a
token lies, and a tap policy has to say where. Checkpoints written before the option
existed load without it. Even with positions, a fresh network's attention is nearly
uniform, so its pooled features are close to the mean of the tokens: two home screens
with the same icons in other places look alike until training sharpens the attention.
`spatial` (off unless asked: `--spatial` for `bmoca train bc` and for a fresh `bmoca train
ppo`) adds a linear map of the whole 32-token grid, in order, to the pooled features, so
the layout shows from the first step (faintly: a fresh CNN's responses are small).

`grid_taps` (off unless asked: `--grid-taps`; `small` and the discrete space only) scores
each of the 378 grid taps from the image right under it: the CNN's stride-8 and stride-16
maps are sampled at the cell's centre, modulated by the goal (FiLM from the pooled
features), and one linear map turns a cell into its tap's logit. The same weights score
every cell, so "tap the gear" follows the gear to another row when the density moves it
(the pooled head has to learn each row apart); swipes and buttons stay on the pooled head.

`Policy.config` is a plain dict that rebuilds the same network (`build_policy`), stored in
every checkpoint beside the weights.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from bmoca.env.actions import TAP_X, TAP_Y

__all__ = ["ARCHITECTURES", "MINILM_L6", "GridTaps", "HashGoalEncoder", "HFGoalEncoder",
           "Policy", "build_policy", "new_config"]

ARCHITECTURES = ("small", "reference")
OUTPUTS = {"discrete": 385, "dual_gesture": 4}
TOKENS = 32  # the 8x4 feature map's cells
GRID_ROWS, GRID_COLS = len(TAP_Y), len(TAP_X)  # the discrete space's tap grid
CELL_DIM = 32
_WORD = re.compile(r"[a-z0-9:']+")
MINILM_L6 = {"vocab_size": 30522, "hidden_size": 384, "num_hidden_layers": 6,
             "num_attention_heads": 12, "intermediate_size": 1536,
             "max_position_embeddings": 512}
"""all-MiniLM-L6-v2's BERT sizes: the text encoder built when no local weights are given."""


class HashGoalEncoder(nn.Module):
    """Goal words (lower-cased) hashed into `buckets` trainable embeddings: tokens (B, T, D)
    and a padding mask. Deterministic (crc32), no vocabulary to store."""

    def __init__(self, dim: int = 64, buckets: int = 4096, max_words: int = 24) -> None:
        super().__init__()
        self.dim, self.buckets, self.max_words = dim, buckets, max_words
        self.embedding = nn.Embedding(buckets + 1, dim, padding_idx=0)

    def ids(self, goals: list[str]) -> torch.Tensor:
        rows = []
        for goal in goals:
            words = _WORD.findall(goal.lower().removeprefix("goal:"))[: self.max_words] or [""]
            row = [1 + zlib.crc32(w.encode()) % self.buckets for w in words]
            rows.append(row + [0] * (self.max_words - len(row)))
        return torch.tensor(rows, dtype=torch.long)

    def forward(self, goals: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        ids = self.ids(goals).to(self.embedding.weight.device)
        return self.embedding(ids), ids == 0


class HFGoalEncoder(nn.Module):
    """A frozen Hugging Face encoder (token states and padding mask), from a local
    directory (`path`, with its tokenizer) or, without one, a BERT built from `config`
    (BertConfig keyword arguments) with random weights and hashed word ids: nothing is
    downloaded. `stored` says whether a checkpoint must carry the weights (a config-built
    encoder cannot be loaded from anywhere else). Embeddings are cached per goal: a task
    has one goal, so each is encoded once."""

    def __init__(self, path: str | None = None, *, config: dict[str, Any] | None = None,
                 max_length: int = 64) -> None:
        super().__init__()
        try:
            import transformers
        except ImportError:
            raise ImportError("the reference architecture's text encoder needs "
                              "transformers: pip install -e '.[train]'") from None
        if path:
            self.model = transformers.AutoModel.from_pretrained(path, local_files_only=True)
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(
                path, local_files_only=True)
        else:
            self.model = transformers.BertModel(transformers.BertConfig(
                **(config or MINILM_L6)), add_pooling_layer=False)
            self.tokenizer = None
        self.stored = not path
        self.model.requires_grad_(False).eval()
        self.dim = int(self.model.config.hidden_size)
        self.max_length = max_length
        self._cache: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}

    def train(self, mode: bool = True) -> HFGoalEncoder:
        super().train(mode)
        self.model.eval()  # frozen: dropout stays off
        return self

    def _ids(self, goal: str) -> torch.Tensor:
        if self.tokenizer is not None:
            return self.tokenizer(goal, truncation=True, max_length=self.max_length,
                                  return_tensors="pt")["input_ids"][0]
        vocab = int(self.model.config.vocab_size)
        return torch.tensor([1 + zlib.crc32(w.encode()) % (vocab - 1)
                             for w in _WORD.findall(goal.lower())] or [1])

    @torch.no_grad()
    def _encode(self, goal: str) -> tuple[torch.Tensor, torch.Tensor]:
        if goal not in self._cache:
            ids = self._ids(goal)[None].to(next(self.model.parameters()).device)
            states = self.model(input_ids=ids).last_hidden_state[0]
            self._cache[goal] = (states, torch.zeros(len(states), dtype=torch.bool))
        return self._cache[goal]

    def forward(self, goals: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        encoded = [self._encode(g) for g in goals]
        length = max(len(s) for s, _ in encoded)
        device = encoded[0][0].device
        states = torch.zeros(len(goals), length, self.dim, device=device)
        mask = torch.ones(len(goals), length, dtype=torch.bool, device=device)
        for i, (s, _m) in enumerate(encoded):
            states[i, : len(s)], mask[i, : len(s)] = s, False
        return states, mask


class SmallCNN(nn.Module):
    """(B, 3, 256, 128) -> (B, 32, channels): four stride-2 convs and a 2x2 pool to 8x4."""

    def __init__(self, channels: int = 64) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = 3
        for out in (16, 32, 48, channels):  # strides 2, 4, 8 and 16
            layers += [nn.Conv2d(width, out, 3, stride=2, padding=1), nn.GELU()]
            width = out
        self.net = nn.Sequential(*layers, nn.AdaptiveAvgPool2d((8, 4)))
        self.dim = channels
        self.fine_dim = 48  # the stride-8 map's channels (`maps`)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.net(pixels).flatten(2).transpose(1, 2)

    def maps(self, pixels: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The tokens and the stride-8 and stride-16 maps they come from (for grid taps)."""
        fine = self.net[:6](pixels)
        coarse = self.net[6:8](fine)
        return self.net[8](coarse).flatten(2).transpose(1, 2), fine, coarse


class EfficientNetB0(nn.Module):
    """torchvision's EfficientNet-b0 features: (B, 3, 256, 128) -> (B, 32, 1280)."""

    def __init__(self, weights: str | None = None) -> None:
        super().__init__()
        try:
            from torchvision.models import efficientnet_b0
        except ImportError:
            raise ImportError("the reference architecture needs torchvision: "
                              "pip install -e '.[train]'") from None
        model = efficientnet_b0(weights=None)
        if weights:  # a local file of ImageNet weights (torchvision's state dict)
            model.load_state_dict(torch.load(weights, map_location="cpu", weights_only=True))
        self.features = model.features
        self.pool = nn.AdaptiveAvgPool2d((8, 4))
        self.dim = 1280
        mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
        std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
        self.register_buffer("mean", mean, persistent=False)
        self.register_buffer("std", std, persistent=False)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        x = self.features((pixels - self.mean) / self.std)
        return self.pool(x).flatten(2).transpose(1, 2)


def _tap_points() -> torch.Tensor:
    """The grid taps' centres in grid_sample's [-1, 1] coordinates, (1, rows, cols, 2)."""
    y, x = torch.meshgrid(torch.tensor(TAP_Y, dtype=torch.float32),
                          torch.tensor(TAP_X, dtype=torch.float32), indexing="ij")
    return torch.stack([x, y], dim=-1).unsqueeze(0) * 2.0 - 1.0


class GridCells(nn.Module):
    """Image maps and the pooled features -> one goal-modulated vector per tap cell."""

    def __init__(self, channels: int, hidden: int, dim: int = CELL_DIM) -> None:
        super().__init__()
        self.register_buffer("points", _tap_points(), persistent=False)
        self.mix = nn.Conv2d(channels, dim, 1)
        self.film = nn.Linear(hidden, 2 * dim)
        self.context = nn.Conv2d(dim, dim, 3, padding=1)

    def forward(self, maps: list[torch.Tensor], hidden: torch.Tensor) -> torch.Tensor:
        points = self.points.expand(hidden.shape[0], -1, -1, -1)
        sampled = torch.cat([F.grid_sample(m, points.to(m.dtype), align_corners=False)
                             for m in maps], dim=1)
        scale, shift = self.film(hidden).chunk(2, dim=-1)
        cells = F.gelu(self.mix(sampled) * (1 + scale[..., None, None]) + shift[..., None, None])
        cells = F.gelu(cells + self.context(cells))
        return cells.flatten(2).transpose(1, 2).flatten(1)  # (B, rows * cols * dim), row-major


class GridTaps(nn.Module):
    """The last layer with grid taps: features = [hidden | cells] -> 378 tap logits, one
    linear map shared by every cell, then the pooled head's swipes and buttons."""

    def __init__(self, hidden: int, others: int, dim: int = CELL_DIM) -> None:
        super().__init__()
        self.hidden, self.dim = hidden, dim
        self.in_features = hidden + GRID_ROWS * GRID_COLS * dim
        self.tap = nn.Linear(dim, 1)
        self.rest = nn.Linear(hidden, others)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        pooled, cells = features[:, : self.hidden], features[:, self.hidden:]
        taps = self.tap(cells.reshape(len(features), -1, self.dim)).squeeze(-1)
        return torch.cat([taps, self.rest(pooled)], dim=-1)


class Policy(nn.Module):
    """pixels (B, 3, 256, 128) in [0, 1] and goals (list of str) -> logits (B, N)."""

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__()
        self.config = dict(config)
        arch, action = config["arch"], config.get("action", "discrete")
        if arch not in ARCHITECTURES:
            raise ValueError(f"unknown architecture {arch!r}; use one of {ARCHITECTURES}")
        if action not in OUTPUTS:
            raise ValueError(f"unknown action space {action!r}; use one of {tuple(OUTPUTS)}")
        if arch == "small":
            dim, hidden = config.get("dim", 64), config.get("hidden", 256)
            self.visual: nn.Module = SmallCNN(dim)
            self.text: nn.Module = HashGoalEncoder(dim)
            self.residual = True
        else:
            dim, hidden = config.get("dim", 384), config.get("hidden", 1024)
            self.visual = EfficientNetB0(config.get("visual_weights"))
            self.text = HFGoalEncoder(config.get("text_encoder"),
                                      config=config.get("text_config"))
            self.residual = False
        self.adapter = nn.Linear(self.visual.dim, dim)
        if config.get("positions", False):
            self.positions = nn.Parameter(torch.zeros(1, TOKENS, dim))
            nn.init.normal_(self.positions, std=0.02)
        else:
            self.positions = None
        # a map of the whole token grid in its order (`spatial`): which icon lies where
        self.spatial = nn.Linear(TOKENS * dim, dim) if config.get("spatial", False) else None
        self.query = nn.Linear(self.text.dim, dim)
        self.attention = nn.MultiheadAttention(dim, num_heads=1, batch_first=True)
        grid = bool(config.get("grid_taps", False))
        if grid and (arch != "small" or action != "discrete"):
            raise ValueError("grid taps need the small architecture and the discrete action "
                             "space")

        def hidden_layers() -> list[nn.Module]:
            return [nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU()]

        # each kind draws its initial weights in the order its measured runs did, so the
        # documented seeds rebuild the documented networks: grid taps drew (and dropped) a
        # plain last layer, then the cells and their last layer, then the hidden layers
        self.cells: GridCells | None = None
        if grid:
            nn.Linear(hidden, OUTPUTS[action])
            self.cells = GridCells(self.visual.fine_dim + dim, hidden)
            last = GridTaps(hidden, OUTPUTS[action] - GRID_ROWS * GRID_COLS)
            self.head = nn.Sequential(*hidden_layers(), last)
        else:
            self.head = nn.Sequential(*hidden_layers(), nn.Linear(hidden, OUTPUTS[action]))

    def forward(self, pixels: torch.Tensor, goals: list[str]) -> torch.Tensor:
        return self.head[-1](self.features(pixels, goals))

    @property
    def features_dim(self) -> int:
        return int(self.head[-1].in_features)

    def features(self, pixels: torch.Tensor, goals: list[str]) -> torch.Tensor:
        """The head's last hidden layer (B, hidden), then with grid taps every cell's vector:
        what RL puts its actor and critic on."""
        if self.cells is not None:
            tokens, fine, coarse = self.visual.maps(pixels)
        else:
            tokens = self.visual(pixels)
        image = self.adapter(tokens)
        if self.positions is not None:
            image = image + self.positions
        text, mask = self.text(goals)
        query = self.query(text.to(image.device))
        attended, _ = self.attention(query, image, image, need_weights=False)
        if self.residual:
            attended = attended + query
        keep = (~mask.to(image.device)).unsqueeze(-1).float()
        pooled = (attended * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        if self.spatial is not None:
            pooled = pooled + self.spatial(image.flatten(1))
        hidden = self.head[:-1](pooled)
        if self.cells is None:
            return hidden
        return torch.cat([hidden, self.cells([fine, coarse], hidden)], dim=-1)

    def weights(self) -> dict[str, torch.Tensor]:
        """The state a checkpoint stores: all of it, less a frozen text encoder that is
        loaded from its local directory."""
        state = self.state_dict()
        if isinstance(self.text, HFGoalEncoder) and not self.text.stored:
            state = {k: v for k, v in state.items() if not k.startswith("text.model.")}
        return state


def build_policy(config: dict[str, Any]) -> Policy:
    return Policy(config)


def new_config(arch: str = "small", action: str = "discrete") -> dict[str, Any]:
    """The config of a policy trained from now on: position embeddings on for `small`,
    off for `reference` (as in the paper). A saved config without the key (a checkpoint
    from before) keeps them off."""
    return {"arch": arch, "action": action, "positions": arch == "small"}
