"""LoRA fine-tuning of a causal LM on text-action demonstrations, and the `hf:` agent.

A tiny randomly initialised Llama and a byte-level BPE tokenizer trained here on the demo
texts stand in for a real model: nothing is downloaded. They check the data (B-MoCA's
action-only prompt, prompt tokens masked), the LoRA targets, that the loss falls on a
repeated batch, adapter and merged round trips, and a tuned model inside `bmoca eval`.
"""

from __future__ import annotations

import json
import re

import pytest

torch = pytest.importorskip("torch", reason="LoRA tests need torch")
transformers = pytest.importorskip("transformers", reason="LoRA tests need transformers")
pytest.importorskip("peft", reason="LoRA tests need peft")
tokenizers = pytest.importorskip("tokenizers", reason="LoRA tests need tokenizers")

from typer.testing import CliRunner  # noqa: E402

from bmoca import demos, tasks  # noqa: E402
from bmoca.agents.llm import prompts  # noqa: E402
from bmoca.agents.llm.hf import sft_examples  # noqa: E402
from bmoca.cli.main import app  # noqa: E402
from bmoca.demos.generate import generate  # noqa: E402
from bmoca.train import lora  # noqa: E402

torch.set_num_threads(1)
TASKS = ("gmail/open_Gmail", "settings/turn_on_wifi")


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("lora") / "demos"
    summary = generate(out, [tasks.get(t) for t in TASKS], ["train_env_000", "train_env_001"],
                       screen_width=90)
    assert summary.kept == 4, summary.failures
    return out


@pytest.fixture(scope="module")
def tiny_model(demo_dir, tmp_path_factory):
    """A 2-layer Llama (hidden 32) and a byte-level BPE tokenizer trained on the demo texts
    (merging across spaces, so prompts are a few hundred tokens and steps are quick)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    texts = [e.user + e.completion for e in sft_examples(demos.load(demo_dir))]
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(texts + [prompts.BMOCA_ROLE], trainers.BpeTrainer(
        vocab_size=2000, special_tokens=["<pad>", "</s>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="</s>",
                                                     pad_token="<pad>")
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=8192,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None, initializer_range=0.3)
    path = tmp_path_factory.mktemp("lora") / "tiny-llama"
    transformers.LlamaForCausalLM(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def test_examples_use_the_action_only_prompt_and_the_agents_history(demo_dir):
    examples = sft_examples(demos.load(demo_dir), tasks=["settings/turn_on_wifi"])
    assert len(examples) == 6  # 3 steps in each of 2 configurations
    first, second = examples[0], examples[1]
    assert first.system == prompts.BMOCA_ROLE
    tag = re.fullmatch(r"- Action: tap\((\d+)\)", first.completion)
    assert tag, first.completion             # the Settings icon, by its element's number
    assert f"'numeric_tag': {tag[1]}, " in first.user
    shown = first.user.split(f"'numeric_tag': {tag[1]}, ")[1].split("}")[0]
    assert "'text': 'Settings'" in shown, shown
    assert "- Description:" not in first.user and "- Action: <Select" in first.user
    assert "Previous actions: []" in first.user and first.user.endswith("Answer: ")
    assert "Previous actions: [\"tap({" in second.user  # a tap carries its element


def test_prompt_tokens_are_masked(tiny_model, demo_dir):
    _model, tokenizer = lora.load_base(tiny_model)
    example = sft_examples(demos.load(demo_dir))[0]
    ids, labels = lora.encode(tokenizer, example)
    prompt = lora.prompt_ids(tokenizer, example.system, example.user)
    assert ids[:len(prompt)] == prompt and set(labels[:len(prompt)]) == {lora.IGNORE}
    assert labels[len(prompt):] == ids[len(prompt):] and ids[-1] == tokenizer.eos_token_id
    assert tokenizer.decode(ids[len(prompt):-1]) == example.completion


def test_a_chat_template_frames_the_prompt_and_the_answer_follows_it(tiny_model, demo_dir):
    _model, tokenizer = lora.load_base(tiny_model)
    tokenizer.chat_template = (
        "{% for m in messages %}<{{ m['role'] }}>{{ m['content'] }}</s>{% endfor %}"
        "{% if add_generation_prompt %}<assistant>{% endif %}")
    example = sft_examples(demos.load(demo_dir))[0]
    text, special = lora.render_prompt(tokenizer, example.system, example.user)
    assert not special and text.startswith(f"<system>{prompts.BMOCA_ROLE}</s><user>")
    assert text.endswith("Answer: </s><assistant>")
    ids, labels = lora.encode(tokenizer, example)
    learned = [i for i, label in zip(ids, labels, strict=True) if label != lora.IGNORE]
    assert tokenizer.decode(learned) == f"{example.completion}</s>"


def test_lora_targets_every_projection_but_the_head(tiny_model):
    model, _ = lora.load_base(tiny_model)
    assert lora.target_modules(model) == sorted(
        ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"])
    gpt2 = transformers.GPT2LMHeadModel(transformers.GPT2Config(
        vocab_size=50, n_embd=16, n_layer=1, n_head=2, n_positions=64))
    assert lora.target_modules(gpt2) == ["c_attn", "c_fc", "c_proj"]  # Conv1D, not lm_head


def test_loss_falls_and_adapter_and_merged_model_round_trip(tiny_model, demo_dir, tmp_path):
    examples = sft_examples(demos.load(demo_dir))[:3]
    settings = lora.LoraSettings(max_steps=12, batch_size=3, grad_accum=1, lr=1e-2,
                                 warmup_ratio=0.0, schedule="constant", dropout=0.0)
    model, tokenizer, result = lora.train(tiny_model, examples, settings)
    assert len(result.losses) == 12 and result.examples == 3
    assert result.losses[-1] < result.losses[0] / 2, result.losses  # one batch, repeated
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    assert 0 < trainable < sum(p.numel() for p in model.parameters()) / 4
    again = lora.train(tiny_model, examples, settings)[2]
    assert again.losses == result.losses  # seeded

    ids = torch.tensor([lora.encode(tokenizer, examples[0])[0]])
    with torch.no_grad():
        tuned = model(input_ids=ids).logits
    adapter = lora.save(model, tokenizer, tmp_path / "adapter", base=tiny_model,
                        settings=settings, result=result)
    assert (adapter / "adapter_config.json").is_file()
    saved = json.loads((adapter / lora.CONFIG_FILE).read_text())
    assert saved["losses"] == result.losses and saved["lora"]["r"] == 8
    loaded, _tok, _ = lora.load_model(adapter)
    with torch.no_grad():
        assert torch.allclose(loaded(input_ids=ids).logits, tuned, atol=1e-5)
    saved["base"] = str(tmp_path / "gone")  # the base moved: name it with base=
    (adapter / lora.CONFIG_FILE).write_text(json.dumps(saved))
    with pytest.raises(lora.TrainError, match="base=DIR"):
        lora.load_model(adapter)
    with torch.no_grad():
        again = lora.load_model(adapter, base=tiny_model)[0](input_ids=ids).logits
        assert torch.allclose(again, tuned, atol=1e-5)
    merged = lora.save(model, tokenizer, tmp_path / "merged", base=tiny_model,
                       settings=settings, result=result, merge=True)
    assert not (merged / "adapter_config.json").exists()
    with torch.no_grad():
        assert torch.allclose(lora.load_model(merged)[0](input_ids=ids).logits, tuned,
                              atol=1e-4)


def test_cli_trains_and_the_tuned_model_plays_inside_bmoca_eval(tiny_model, demo_dir,
                                                                 tmp_path):
    from bmoca.eval.store import Store

    out = tmp_path / "tuned"
    result = CliRunner().invoke(app, ["train", "lora", "--data", str(demo_dir), "--model",
                                      str(tiny_model), "--out", str(out), "--max-steps", "2",
                                      "--batch-size", "2", "--grad-accum", "1"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["steps"] == 2 and summary["examples"] == 8
    assert json.loads((out / lora.CONFIG_FILE).read_text())["lora"]["alpha"] == 16
    for name, options in (("greedy", []), ("sampled", ["-o", "sample=true", "-o",
                                                       "temperature=1.0"])):
        run = tmp_path / name
        result = CliRunner().invoke(app, [
            "eval", "--agent", f"hf:{out}", "--tasks", "gmail/open_Gmail", "--configs",
            "test_env_100", "--repeats", "1", "--run-dir", str(run), "--no-save-screens",
            "-o", "max_tokens=12", *options])
        assert result.exit_code == 0, result.output
        with Store(run) as store:
            (episode,) = store.episodes(run.name)
            answers = [s.agent_output["response"] for s in store.steps_of(episode.episode_id)]
        assert episode.status == "done" and episode.steps == 4  # the step limit, no crash
        assert episode.invalid_actions >= 1  # a random model writes nonsense: counted
        assert episode.output_tokens > 0 and episode.cost_usd == 0.0 and len(answers) == 4
    missing = CliRunner().invoke(app, ["train", "lora", "--data", str(demo_dir), "--model",
                                       str(tmp_path / "nowhere"), "--out", str(tmp_path / "x")])
    assert missing.exit_code == 2 and "no such model directory" in missing.output
    bad = CliRunner().invoke(app, ["eval", "--agent", f"hf:{out}", "-o", "colour=red",
                                   "--tasks", "gmail/open_Gmail", "--configs", "test_env_100"])
    assert bad.exit_code == 2 and "colour" in bad.output


class Interrupted(Exception):
    """Stands for the kill: raised by the step report after a Trainer checkpoint."""


def test_interrupted_and_resumed_lora_ends_with_the_uninterrupted_adapter(tiny_model,
                                                                        demo_dir, tmp_path):
    from bmoca.train.checkpoints import Checkpointing

    examples = sft_examples(demos.load(demo_dir))[:6]  # 3 steps an epoch: resumes mid-epoch
    settings = lora.LoraSettings(max_steps=5, batch_size=2, grad_accum=1, lr=1e-2,
                                 warmup_ratio=0.25, max_grad_norm=0.5)  # dropout 0.1: RNG
    straight, _tok, result = lora.train(tiny_model, examples, settings)

    def stop(step: int, *_args) -> None:
        if step == 2:  # the third step, after the checkpoint of the second
            raise Interrupted

    saving = Checkpointing(tmp_path / "out.ckpt", every=2, spec={"trainer": "lora", "seed": 0})
    with pytest.raises(Interrupted):
        lora.train(tiny_model, examples, settings, on_step=stop, checkpointing=saving)
    assert (saving.path / "checkpoint-2" / "adapter_model.safetensors").is_file()
    saving.resume = True
    resumed, _tok, again = lora.train(tiny_model, examples, settings, checkpointing=saving)
    assert again.losses == result.losses and len(again.losses) == 5
    mine, theirs = resumed.state_dict(), straight.state_dict()
    learned = [k for k in mine if "lora_" in k]
    assert learned and all(torch.equal(mine[k], theirs[k]) for k in learned)
    other = Checkpointing(saving.path, resume=True, spec={"trainer": "lora", "seed": 1})
    with pytest.raises(lora.TrainError, match=r"another run \(seed 0 there, 1 here\)"):
        lora.train(tiny_model, examples, settings, checkpointing=other)


def test_cli_lora_checkpoints_and_resumes(tiny_model, demo_dir, tmp_path):
    out = tmp_path / "tuned"
    args = ["train", "lora", "--data", str(demo_dir), "--model", str(tiny_model), "--out",
            str(out), "--max-steps", "3", "--batch-size", "4", "--grad-accum", "1",
            "--checkpoint-every", "2", "--max-grad-norm", "0.3"]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    kept = sorted(p.name for p in (tmp_path / "tuned.ckpt").iterdir())
    assert kept == ["bmoca_run.json", "checkpoint-2"]  # not the last step: OUT has it
    assert "{'loss'" not in first.output  # only bmoca's JSON lines
    again = CliRunner().invoke(app, [*args, "--resume"])  # step 3 from checkpoint-2
    assert again.exit_code == 0, again.output
    assert json.loads(again.output.strip().splitlines()[-1])["final_loss"] == \
        json.loads(first.output.strip().splitlines()[-1])["final_loss"]
    (tmp_path / "tuned.ckpt" / "checkpoint-9").mkdir()  # another run's, left behind
    assert CliRunner().invoke(app, args).exit_code == 0  # afresh: it goes
    assert not (tmp_path / "tuned.ckpt" / "checkpoint-9").exists()
    refused = CliRunner().invoke(app, [*args, "--resume", "--lora-r", "4"])
    assert refused.exit_code == 2 and "(r 8 there, 4 here)" in refused.output
    bad = CliRunner().invoke(app, [*args, "--device", "tpu"])
    assert bad.exit_code == 2 and "unknown device 'tpu'" in bad.output
