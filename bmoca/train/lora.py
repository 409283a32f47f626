"""LoRA supervised fine-tuning of a local causal language model on prompt-completion pairs.

Completion-only loss: the prompt's tokens are labelled -100, so the model learns to write
the answer, not to reproduce the (long) prompt. The prompt goes through the tokenizer's
chat template (system + user, then the assistant header) when the tokenizer has one, as
the reference's Llama-3 agent does (§6.4), and is plain "system\\n\\nuser" otherwise;
`prompt_ids` is the one place that decides, used by training and by the `hf:` agent alike.
LoRA follows §6.4 (r 8, alpha 16, dropout 0.1, no bias) on every linear layer of the
model except its output head (`target_modules` finds them, whatever the architecture).

Models load only from local directories (`local_files_only`): nothing is downloaded.
Training runs on transformers' `Trainer` (optimiser, schedule, gradient accumulation with
the loss averaged over every learned token of the accumulated batch, gradient clipping at
`max_grad_norm`, mixed precision, and, with `--checkpoint-every N`, intermediate
checkpoints in `OUT.ckpt/checkpoint-STEP` that `--resume` continues from: weights,
optimiser, schedule, random generators and the data position, so a resumed run ends with
the adapter of an uninterrupted one).

Needs torch, transformers and peft (`pip install -e ".[lora]"`); `require_lora` gives
the one-line error. Seeded: the same data, model, settings and seed give the same adapter.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from bmoca.train import TrainError
from bmoca.train.checkpoints import Checkpointing, resolve_device, spec_difference, use_amp

__all__ = ["CONFIG_FILE", "Example", "LoraSettings", "LoraResult", "encode", "load_model",
           "prompt_ids", "require_lora", "save", "target_modules", "train"]

FORMAT = "bmoca-lora"
CONFIG_FILE = "bmoca_lora.json"
"""Written next to the adapter (or merged model): settings, data, the loss curve."""

IGNORE = -100
DTYPES = ("float32", "bfloat16", "float16")
OPTIMISERS = {"adamw": "adamw_torch", "sgd": "sgd"}  # ours: the Trainer's `optim`
SCHEDULES = {"cosine": "cosine", "linear": "linear", "constant": "constant_with_warmup"}
RUN_FILE = "bmoca_run.json"
"""In the checkpoint directory: the spec a resumed run must match."""


def require_lora() -> tuple[Any, Any]:
    """(transformers, peft), or TrainError with the install line."""
    try:
        import peft
        import transformers
    except ImportError:
        raise TrainError("LoRA training needs transformers and peft: "
                         "pip install -e '.[lora]'") from None
    return transformers, peft


@dataclass(frozen=True)
class Example:
    """One supervised step: the prompt as system and user text, and the wanted answer."""

    system: str
    user: str
    completion: str


@dataclass
class LoraSettings:
    epochs: int = 3
    max_steps: int = 0  # optimiser steps; 0: as many as the epochs make
    batch_size: int = 4
    grad_accum: int = 2  # micro-batches per optimiser step
    lr: float = 2e-4
    weight_decay: float = 0.0
    warmup_ratio: float = 0.01
    schedule: str = "cosine"
    optimizer: str = "adamw"
    max_length: int = 0  # tokens per example; 0: the model's context length
    r: int = 8
    alpha: int = 16
    dropout: float = 0.1
    seed: int = 0
    device: str = "cpu"
    dtype: str = "float32"
    gradient_checkpointing: bool = False
    max_grad_norm: float = 1.0  # gradient clipping (0: none)
    amp: bool | None = None  # mixed precision; None: on for CUDA (float32 weights only)

    def check(self) -> None:
        if self.optimizer not in OPTIMISERS:
            raise TrainError(f"optimizer {self.optimizer!r}: valid: {', '.join(OPTIMISERS)}")
        if self.schedule not in SCHEDULES:
            raise TrainError(f"schedule {self.schedule!r}: valid: {', '.join(SCHEDULES)}")
        if self.dtype not in DTYPES:
            raise TrainError(f"dtype {self.dtype!r}: valid: {', '.join(DTYPES)}")
        if min(self.epochs, self.batch_size, self.grad_accum, self.r) < 1:
            raise TrainError("epochs, batch size, grad accumulation and r must be >= 1")


@dataclass
class LoraResult:
    losses: list[float]  # one per optimiser step: mean loss over the completion tokens
    seconds: float
    examples: int
    dropped: int  # examples longer than max_length, left out
    target_modules: list[str]


# -- prompts and tokens --------------------------------------------------------------------

def render_prompt(tokenizer: Any, system: str, user: str) -> tuple[str, bool]:
    """The prompt text and whether the tokenizer should add its special tokens (only
    without a chat template: a template writes its own)."""
    if getattr(tokenizer, "chat_template", None):
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        try:
            text = tokenizer.apply_chat_template(messages, tokenize=False,
                                                 add_generation_prompt=True)
        except Exception:  # noqa: BLE001 - templates without a system role (Gemma) raise
            merged = [{"role": "user", "content": f"{system}\n\n{user}"}]
            text = tokenizer.apply_chat_template(merged, tokenize=False,
                                                 add_generation_prompt=True)
        return str(text), False
    return f"{system}\n\n{user}", True


def prompt_ids(tokenizer: Any, system: str, user: str) -> list[int]:
    """The prompt's token ids, exactly as the model sees them when it answers."""
    text, special = render_prompt(tokenizer, system, user)
    return list(tokenizer(text, add_special_tokens=special)["input_ids"])


def encode(tokenizer: Any, example: Example) -> tuple[list[int], list[int]]:
    """(input ids, labels) of one example: prompt labels are IGNORE, the completion and
    the end-of-sequence token (so the model learns to stop) are learned."""
    if tokenizer.eos_token_id is None:
        raise TrainError("the tokenizer has no end-of-sequence token; set eos_token")
    prompt = prompt_ids(tokenizer, example.system, example.user)
    answer = list(tokenizer(example.completion, add_special_tokens=False)["input_ids"])
    answer.append(int(tokenizer.eos_token_id))
    return prompt + answer, [IGNORE] * len(prompt) + answer


def context_length(model: Any) -> int | None:
    config = getattr(model, "config", None)
    for key in ("max_position_embeddings", "n_positions", "max_sequence_length"):
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


def target_modules(model: Any) -> list[str]:
    """The names of every linear layer (attention and MLP projections) except the output
    head, as peft's `target_modules` wants them (the last name component)."""
    linear: tuple[type, ...] = (torch.nn.Linear,)
    try:
        from transformers.pytorch_utils import Conv1D  # GPT-2's linear layers

        linear += (Conv1D,)
    except ImportError:
        pass
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    head_names = {n.rsplit(".", 1)[-1] for n, m in model.named_modules() if m is head}
    names = {n.rsplit(".", 1)[-1] for n, m in model.named_modules()
             if isinstance(m, linear) and m is not head}
    found = sorted(names - head_names)
    if not found:
        raise TrainError("the model has no linear layers besides its output head to adapt")
    return found


# -- models --------------------------------------------------------------------------------

def _dtype(name: str) -> torch.dtype:
    return {"float32": torch.float32, "bfloat16": torch.bfloat16,
            "float16": torch.float16}[name]


def _dtype_keyword(transformers: Any) -> str:
    """`dtype` since transformers 4.56, `torch_dtype` before (deprecated after)."""
    major, minor = (int(p) for p in transformers.__version__.split(".")[:2])
    return "dtype" if (major, minor) >= (4, 56) else "torch_dtype"


def _directory(path: str | Path, what: str) -> Path:
    path = Path(path).expanduser()
    if not path.is_dir():
        raise TrainError(f"{path}: no such {what} directory (models load from local "
                         "directories only; nothing is downloaded)")
    return path


def load_base(path: str | Path, dtype: str = "float32") -> tuple[Any, Any]:
    """(model, tokenizer) of a local Hugging Face causal LM directory."""
    transformers, _ = require_lora()
    path = _directory(path, "model")
    try:
        model = transformers.AutoModelForCausalLM.from_pretrained(
            path, local_files_only=True, **{_dtype_keyword(transformers): _dtype(dtype)})
    except (OSError, ValueError, KeyError) as exc:
        raise TrainError(f"{path}: not a usable causal language model ({exc})") from None
    return model, load_tokenizer(path)


def load_tokenizer(path: Path) -> Any:
    """The tokenizer saved in `path`, padding with end-of-sequence when it has no pad."""
    transformers, _ = require_lora()
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
    except (OSError, ValueError, KeyError) as exc:
        raise TrainError(f"{path}: no usable tokenizer ({exc})") from None
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(path: str | Path, *, base: str | Path | None = None, dtype: str = "float32",
               device: str = "cpu") -> tuple[Any, Any, dict[str, Any]]:
    """(model, tokenizer, saved config) for inference, in eval mode on `device`.

    `path` is a model directory (merged or any causal LM) or a LoRA adapter directory; an
    adapter's base is `base`, else the base recorded at training time."""
    _, peft = require_lora()
    path = _directory(path, "model or adapter")
    saved = _saved_config(path)
    if (path / "adapter_config.json").is_file():
        if base is None:
            base = saved.get("base") or json.loads(
                (path / "adapter_config.json").read_text("utf-8")).get("base_model_name_or_path")
        if not base or not Path(base).is_dir():
            raise TrainError(f"{path} is a LoRA adapter; its base model {base!r} is not a local "
                             "directory: pass it with -o base=DIR")
        model, tokenizer = load_base(base, dtype)
        if (path / "tokenizer_config.json").is_file():  # saved with the adapter
            tokenizer = load_tokenizer(path)
        model = peft.PeftModel.from_pretrained(model, path, local_files_only=True)
    else:
        model, tokenizer = load_base(path, dtype)
    try:
        model.to(torch.device(device))
    except (RuntimeError, AssertionError) as exc:
        raise TrainError(f"cannot run on device {device!r}: {exc}") from None
    return model.eval(), tokenizer, saved


def _saved_config(path: Path) -> dict[str, Any]:
    file = path / CONFIG_FILE
    if not file.is_file():
        return {}
    try:
        saved = json.loads(file.read_text("utf-8"))
    except ValueError as exc:
        raise TrainError(f"{file}: not valid JSON ({exc})") from None
    return saved if isinstance(saved, dict) and saved.get("format") == FORMAT else {}


# -- training ------------------------------------------------------------------------------

class _Encoded(torch.utils.data.Dataset):
    def __init__(self, encoded: Sequence[tuple[list[int], list[int]]]) -> None:
        self.encoded = encoded

    def __len__(self) -> int:
        return len(self.encoded)

    def __getitem__(self, index: int) -> tuple[list[int], list[int]]:
        return self.encoded[index]


class _Padding:
    """Right-pads a micro-batch: padding is `pad_id` in the input and IGNORE in the labels
    (the model shifts the labels itself: label i is the token at i)."""

    def __init__(self, pad_id: int) -> None:
        self.pad_id = pad_id

    def __call__(self, items: list[tuple[list[int], list[int]]]) -> dict[str, torch.Tensor]:
        width = max(len(ids) for ids, _ in items)
        ids = torch.full((len(items), width), self.pad_id, dtype=torch.long)
        labels = torch.full((len(items), width), IGNORE, dtype=torch.long)
        mask = torch.zeros((len(items), width), dtype=torch.long)
        for row, (tokens, targets) in enumerate(items):
            ids[row, :len(tokens)] = torch.tensor(tokens)
            labels[row, :len(targets)] = torch.tensor(targets)
            mask[row, :len(tokens)] = 1
        return {"input_ids": ids, "labels": labels, "attention_mask": mask}


def _device_arguments(settings: LoraSettings) -> dict[str, Any]:
    """The Trainer's say over the device and precision. It trains on the first visible GPU:
    another is chosen with CUDA_VISIBLE_DEVICES, not with an index."""
    device = resolve_device(settings.device)
    if device.type == "cuda" and (device.index or 0) > 0:
        raise TrainError(f"--device {settings.device}: LoRA training uses the first visible "
                         f"GPU; run with CUDA_VISIBLE_DEVICES={device.index} and --device cuda")
    arguments: dict[str, Any] = {"use_cpu": device.type == "cpu"}
    if use_amp(settings.amp, device) and settings.dtype == "float32":
        half = device.type == "mps" or (device.type == "cuda"
                                        and not torch.cuda.is_bf16_supported())
        arguments["fp16" if half else "bf16"] = True
    return arguments


def _resume_from(checkpointing: Checkpointing | None) -> str | None:
    """The Trainer checkpoint to resume from (None to start afresh), after checking the
    run's spec against the one the checkpoints were written with; records the spec."""
    if checkpointing is None:
        return None
    directory, record = checkpointing.path, checkpointing.path / RUN_FILE
    last = None
    if checkpointing.resume:
        from transformers.trainer_utils import get_last_checkpoint

        last = get_last_checkpoint(str(directory)) if directory.is_dir() else None
        if last is None:
            raise TrainError(f"--resume: no checkpoint in {directory} (a run writes them with "
                             "--checkpoint-every N)")
        saved = json.loads(record.read_text("utf-8")) if record.is_file() else {}
        differs = spec_difference(saved, json.loads(json.dumps(checkpointing.spec)))
        if differs:
            raise TrainError(f"--resume: {directory} is from another run ({differs}); use "
                             "the same options, or start afresh without --resume")
    if checkpointing.every:
        directory.mkdir(parents=True, exist_ok=True)
        if last is None:  # a run started afresh: an earlier run's checkpoints would mix in
            for stale in directory.glob("checkpoint-*"):
                shutil.rmtree(stale)
        record.write_text(json.dumps(checkpointing.spec, indent=2) + "\n", "utf-8")
    return last


def _reporter(transformers: Any, total: int,
              on_step: Callable[[int, int, float, float], None] | None) -> Any:
    """Each step's loss to `on_step`; and no checkpoint of the last step (the adapter is
    saved then: resuming a finished run replays its last step, as the other trainers)."""
    class Report(transformers.TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):  # noqa: ANN001
            if state.global_step >= state.max_steps:
                control.should_save = False

        def on_log(self, args, state, control, logs=None, **kwargs):  # noqa: ANN001
            if on_step is not None and logs and "loss" in logs:
                on_step(state.global_step - 1, total, float(logs["loss"]),
                        float(logs.get("learning_rate", 0.0)))

    return Report()


def train(model_path: str | Path, examples: Sequence[Example], settings: LoraSettings, *,
          on_step: Callable[[int, int, float, float], None] | None = None,
          checkpointing: Checkpointing | None = None,
          ) -> tuple[Any, Any, LoraResult]:
    """Fine-tune LoRA adapters on `examples`; returns (peft model, tokenizer, result).

    `on_step(step, total, loss, lr)` is called after each optimiser step. `checkpointing`
    (a directory) keeps a Trainer checkpoint every `every` steps and resumes from the last."""
    settings.check()
    transformers, peft = require_lora()
    device_arguments = _device_arguments(settings)
    resume_from = _resume_from(checkpointing)
    model, tokenizer = load_base(model_path, settings.dtype)
    limit = settings.max_length or context_length(model) or 0
    encoded, dropped = [], 0
    for example in examples:
        ids, labels = encode(tokenizer, example)
        if limit and len(ids) > limit:
            dropped += 1
            continue
        encoded.append((ids, labels))
    if not encoded:
        raise TrainError(f"no example to learn from ({len(examples)} given, {dropped} longer "
                         f"than {limit} tokens)")
    torch.manual_seed(settings.seed)  # LoRA's initial weights
    targets = target_modules(model)
    config = peft.LoraConfig(r=settings.r, lora_alpha=settings.alpha,
                             lora_dropout=settings.dropout, bias="none",
                             target_modules=targets, task_type="CAUSAL_LM")
    model = peft.get_peft_model(model, config)
    if settings.gradient_checkpointing:
        enable = (getattr(model, "activation_checkpointing_enable", None)  # transformers 5
                  or model.gradient_checkpointing_enable)
        enable()
        model.enable_input_require_grads()
        model.config.use_cache = False  # a cache is useless with checkpointing
    per_epoch = math.ceil(math.ceil(len(encoded) / settings.batch_size) / settings.grad_accum)
    total = settings.max_steps or per_epoch * settings.epochs
    with tempfile.TemporaryDirectory(prefix="bmoca-lora-") as scratch:
        every = checkpointing.every if checkpointing else 0
        arguments = transformers.TrainingArguments(
            output_dir=str(checkpointing.path) if checkpointing else scratch,
            per_device_train_batch_size=settings.batch_size,
            gradient_accumulation_steps=settings.grad_accum, max_steps=total,
            learning_rate=settings.lr, weight_decay=settings.weight_decay,
            lr_scheduler_type=SCHEDULES[settings.schedule],
            warmup_steps=math.ceil(settings.warmup_ratio * total),
            optim=OPTIMISERS[settings.optimizer], max_grad_norm=settings.max_grad_norm,
            seed=settings.seed, data_seed=settings.seed, logging_strategy="steps",
            logging_steps=1, save_strategy="steps" if every else "no",
            save_steps=every or 500, report_to="none", disable_tqdm=True,
            remove_unused_columns=False, dataloader_pin_memory=False, **device_arguments)
        trainer = transformers.Trainer(model=model, args=arguments,
                                       train_dataset=_Encoded(encoded),
                                       data_collator=_Padding(int(tokenizer.pad_token_id)),
                                       callbacks=[_reporter(transformers, total, on_step)])
        trainer.remove_callback(transformers.PrinterCallback)  # `on_step` reports instead
        start = time.perf_counter()
        trainer.train(resume_from_checkpoint=resume_from)
        seconds = time.perf_counter() - start
    losses = [float(e["loss"]) for e in trainer.state.log_history if "loss" in e]
    model.to("cpu").eval()
    return model, tokenizer, LoraResult(losses, seconds, len(encoded), dropped, targets)


def save(model: Any, tokenizer: Any, out: str | Path, *, base: str | Path,
         settings: LoraSettings, result: LoraResult, merge: bool = False,
         extra: dict[str, Any] | None = None) -> Path:
    """Write the adapter (or, with `merge`, the merged model), the tokenizer and
    `CONFIG_FILE` into the directory `out`; returns it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if merge:
        model = model.merge_and_unload()
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    record = {"format": FORMAT, "version": 1, "base": str(Path(base).expanduser().resolve()),
              "merged": merge, "settings": asdict(settings),
              "lora": {"r": settings.r, "alpha": settings.alpha, "dropout": settings.dropout,
                       "bias": "none", "target_modules": result.target_modules},
              "examples": result.examples, "dropped_too_long": result.dropped,
              "seconds": round(result.seconds, 3), "losses": result.losses, **(extra or {})}
    (out / CONFIG_FILE).write_text(json.dumps(record, indent=2) + "\n", "utf-8")
    return out
