"""bmoca's tasks as a `verifiers` (0.4) environment: multi-turn, scored by the task itself.

    pip install 'bmoca[verifiers]'
    vf-eval bmoca-verifiers --env.taskset.tasks settings -m MODEL --client.base-url URL

or in Python, `bmoca.hubs.verifiers_env.load_environment(tasks="settings")` (a `vf.Env`).

verifiers 0.4 splits an environment into a taskset (rows), an env (how a row becomes an
episode) and a harness (the program that calls the model). Here:

- a row (`BmocaData`) is one episode: a task, a device configuration and a seed; rows are
  every selected task on every configuration of the split, `seeds` seeds each;
- `BmocaEnv.run` is the phone playing the user: it makes the task's environment
  (`bmoca.make`, JSON actions), opens the conversation with the AndroidWorld-style prompt
  the T3A agent reads (`bmoca.agents.llm.prompts`: actions, goal, screen), steps the phone
  with each reply (the JSON action in it; a reply with no valid action is an invalid
  action the next turn reports, as the gym env does) and answers with what the step did
  and the new screen, until the task succeeds, the agent stops (`status`), the task's step
  limit is reached or verifiers ends the agent's run (its `max_turns`); the phone is
  closed whatever happens;
- the task's rewards (`BmocaTask`): `success`, 1.0 when the task's own success detector
  held (weight 1), and `subgoal_progress`, the share of the task's sub-goals met (1.0 on
  success; weight 0 unless the run re-weights it: `--env.taskset.task.rewards.
  subgoal_progress.weight 0.5`); metrics `steps` and `invalid_actions`;
- `BmocaChat`, the default harness: one chat completion per turn, in-process, through
  verifiers' interception endpoint as every harness's calls go (so trainers get tokens and
  logprobs); verifiers' own `null` harness does the same in a uv-managed subprocess and can
  be pinned instead (`--env.agent.harness.id null`).

Episodes are deterministic: the same row gives the same screens for the same replies.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, Literal

import openai
import verifiers.v1 as vf
from pydantic import Field
from verifiers.v1.dialects.chat import message_to_wire

from bmoca import configs
from bmoca import tasks as bmoca_tasks
from bmoca.agents.llm import prompts
from bmoca.env import make

TASKSET_ID = "bmoca-verifiers"
"""The id verifiers loads this taskset by: it imports the top-level `bmoca_verifiers`."""

INFO_KEY = "bmoca"
"""The episode's outcome in `trace.info`, which the task's rewards read."""

__all__ = ["INFO_KEY", "TASKSET_ID", "BmocaChat", "BmocaChatConfig", "BmocaData", "BmocaEnv",
           "BmocaEnvConfig", "BmocaTask", "BmocaTaskset", "BmocaTasksetConfig",
           "load_environment"]


# -- the taskset: one row per episode ----------------------------------------------------------

class BmocaTasksetConfig(vf.TasksetConfig):
    """Which episodes the rows are (`--env.taskset.*`)."""

    tasks: str = "settings"
    """Tasks as `bmoca tasks`/`bmoca eval --tasks` name them: an app, a category, task ids,
    globs, `all`, `representative` (comma-separated)."""
    split: Literal["train", "test", "all"] = "train"
    """The device configurations of this split (35 train, 5 test presets)."""
    configs: str | None = None
    """Configuration ids instead of the split's, comma-separated, ranges as
    `train_env_000..004` (as `bmoca eval --configs` takes them)."""
    seeds: int = Field(1, ge=1)
    """Episodes per task and configuration, seeds `seed`, `seed + 1`, ..."""
    seed: int = Field(0, ge=0)
    observation: Literal["text", "xml"] = "text"
    """The screen the model reads: the element list (`index` for click) or the raw view
    hierarchy (click by pixel `x`, `y`)."""
    step_limit: int | None = Field(None, ge=1)
    """Phone steps per episode (None: each task's own limit)."""


class BmocaData(vf.TaskData):
    """One episode: its task, configuration and seed (the prompt is the phone's first
    screen, made when the episode starts)."""

    task_id: str
    config_id: str
    seed: int
    observation: Literal["text", "xml"] = "text"
    step_limit: int | None = None


class BmocaTask(vf.Task[BmocaData, vf.State, vf.TaskConfig]):
    """A bmoca episode's scoring: the task's own success detector, read from the outcome
    the env wrote in `trace.info[INFO_KEY]` before the conversation closed."""

    @property
    def key(self) -> str:
        return f"{self.data.task_id}|{self.data.config_id}|{self.data.seed}"

    @vf.reward
    async def success(self, trace: vf.Trace) -> float:
        return 1.0 if _outcome(trace).get("success") else 0.0

    @vf.reward(weight=0.0)
    async def subgoal_progress(self, trace: vf.Trace) -> float:
        """The share of the task's sub-goals the final state meets (CheckPoint-style: 1.0 on
        success; a task without sub-goals has only its goal)."""
        outcome = _outcome(trace)
        if outcome.get("success"):
            return 1.0
        met, total = outcome.get("subgoals") or (0, 1)
        return met / total if total else 0.0

    @vf.metric
    async def episode(self, trace: vf.Trace) -> dict[str, float]:
        outcome = _outcome(trace)
        return {"steps": float(outcome.get("steps", 0)),
                "invalid_actions": float(outcome.get("invalid_actions", 0))}


def _outcome(trace: vf.Trace) -> dict[str, Any]:
    return trace.info.get(INFO_KEY) or {}


class BmocaTaskset(vf.Taskset[BmocaTask, BmocaTasksetConfig]):
    """Every selected task on every configuration, `seeds` seeds each, task by task."""

    def load(self) -> Iterator[BmocaTask]:
        cfg = self.config
        chosen = bmoca_tasks.select(cfg.tasks)
        config_ids = (configs.expand(cfg.configs) if cfg.configs else
                      configs.ids(None if cfg.split == "all" else cfg.split))
        for task, config_id, offset in itertools.product(chosen, config_ids, range(cfg.seeds)):
            seed = cfg.seed + offset
            yield BmocaTask(BmocaData(
                id=f"{task.id}|{config_id}|{seed}", name=f"{task.id} on {config_id} #{seed}",
                description=task.instruction, system_prompt=prompts.AW_ROLE, task_id=task.id,
                config_id=config_id, seed=seed, observation=cfg.observation,
                step_limit=cfg.step_limit), cfg.task)


# -- the env: the phone plays the user ---------------------------------------------------------

class BmocaEnvConfig(vf.EnvConfig):
    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())
    """The model under training/evaluation. Its runtime is local: the default harness runs
    in-process and executes nothing."""


class BmocaEnv(vf.Env[BmocaEnvConfig]):
    """Steps a bmoca environment with each reply and answers with the new screen."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        data: BmocaData = task.data
        env = make(data.task_id, config=data.config_id, observation=(data.observation,),
                   action="json", step_limit=data.step_limit)
        try:
            observation, info = env.reset(seed=data.seed)
            outcome: dict[str, Any] = {
                "task_id": data.task_id, "config_id": data.config_id, "seed": data.seed,
                "success": bool(info["success"]), "steps": 0, "invalid_actions": 0,
                "ended": None, "actions": []}
            # The row's prompt is None: the phone opens the conversation with its screen.
            async with agents.agent.interaction(task) as interaction:
                interaction.trace.info[INFO_KEY] = outcome
                message = prompts.aw_user_text(
                    info["goal"], _screen(observation), [],
                    hint=prompts.AW_XML_HINT if data.observation == "xml" else "")
                while outcome["ended"] is None:
                    segment = await interaction.turn(message)
                    if segment.terminated:  # verifiers ended the run (max_turns, a @stop)
                        outcome["ended"] = "agent_stopped"
                        break
                    observation, _, terminated, truncated, info = env.step(segment.last_reply)
                    outcome.update(success=bool(info["success"]), steps=info["steps"],
                                   invalid_actions=info["invalid_actions"])
                    outcome["actions"].append(info.get("action_label") or
                                              f"invalid: {info.get('action_error')}")
                    if "subgoals" in info:
                        outcome["subgoals"] = list(info["subgoals"])
                    if terminated or truncated:
                        outcome["ended"] = "terminated" if terminated else "truncated"
                        break
                    result = prompts.aw_step_result(info["steps"], info.get("action_label"),
                                                    info.get("action_error"),
                                                    bool(info.get("no_effect")))
                    message = prompts.aw_next_turn(result, _screen(observation))
        finally:
            env.close()


def _screen(observation: dict[str, Any]) -> str:
    """The screen as the model reads it: T3A's element lines, or the raw XML."""
    if "text" in observation:
        return prompts.aw_elements(str(observation["text"]))
    return str(observation["xml"])


# -- the harness: one chat completion per turn -------------------------------------------------

class BmocaChatConfig(vf.HarnessConfig):
    pass


class BmocaChat(vf.Harness[BmocaChatConfig]):
    """A tool-less chat turn run in-process: the conversation so far, one completion through
    the interception endpoint (verifiers records it on the trace), no program to install."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, ctx: vf.ModelContext, trace: vf.Trace, runtime: vf.Runtime,
                     endpoint: str, secret: str, mcp_urls: dict[str, str], data: vf.TaskData,
                     tool_interception_url: str | None = None) -> vf.ProgramResult:
        system, prompt = self.resolve_prompt(data)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system \
            else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        else:
            messages += [message_to_wire(m) for m in prompt or []]
        client = openai.AsyncOpenAI(base_url=endpoint, api_key=secret, max_retries=2)
        try:
            await client.chat.completions.create(model=ctx.model, messages=messages)
        except openai.APIStatusError as exc:
            # A refused turn (a limit or a @stop) ends the run; verifiers reads why from the
            # trace, and any other refusal becomes the harness's error.
            return vf.ProgramResult(exit_code=1, stdout="", stderr=str(exc))
        finally:
            await client.close()
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")


def load_environment(tasks: str = "settings", split: str = "train",
                     configs: str | None = None, seeds: int = 1, seed: int = 0,
                     observation: str = "text", step_limit: int | None = None,
                     reward_weights: dict[str, float] | None = None, **env: Any) -> vf.Env:
    """The environment for these episodes (the taskset's fields are documented on
    `BmocaTasksetConfig`); `reward_weights` re-weights the task's rewards by name
    (`{"subgoal_progress": 0.5}`); `env` takes the rest of the env config
    (`agent={"max_turns": 10}`, `timeout=...`) as verifiers' own `load_environment` does."""
    taskset = {"id": TASKSET_ID, "tasks": tasks, "split": split, "configs": configs,
               "seeds": seeds, "seed": seed, "observation": observation,
               "step_limit": step_limit}
    if reward_weights:
        taskset["task"] = {"rewards": {name: {"weight": weight}
                                       for name, weight in reward_weights.items()}}
    return vf.load_environment(vf.resolve_env_config({"taskset": taskset, **env}))
