"""The Ray executor on a local Ray instance (loopback, 2 CPUs) started inside the tests:
the same episodes and results as the process pool, streamed into the one store."""

from __future__ import annotations

import json

import pytest
from test_eval import CONFIGS, TWO_TASKS, bmoca_cli

ray = pytest.importorskip("ray", reason="ray is not installed: pip install 'bmoca[ray]'")

from bmoca.eval import evaluate  # noqa: E402
from bmoca.eval.store import Store  # noqa: E402


@pytest.fixture(scope="module")
def cluster() -> str:
    """The address of a local Ray head on loopback, shut down after the module's tests."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _node_ip_address="127.0.0.1", configure_logging=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def _results(store: Store, run_id: str) -> dict:
    """Everything an episode's result is, by natural key (not ids or timings)."""
    out = {}
    for e in store.episodes(run_id):
        steps = [(s.action, s.valid, s.reward, s.success, s.info.get("target"))
                 for s in store.steps_of(e.episode_id)]
        out[e.key] = (e.status, e.success, e.steps, e.invalid_actions, e.reward, e.terminated,
                      e.truncated, e.detector_trace, e.seed, steps)
    return out


def test_ray_gives_the_same_episodes_as_the_process_pool(cluster, tmp_path):
    for agent in ("random", "expert"):
        with Store(tmp_path / "pool.sqlite") as pool, Store(tmp_path / "ray.sqlite") as on_ray:
            assert evaluate.evaluate(pool, agent, agent, TWO_TASKS, CONFIGS, 2, seed=3,
                                     workers=2) == 8
            assert evaluate.evaluate(on_ray, agent, agent, TWO_TASKS, CONFIGS, 2, seed=3,
                                     workers=2, executor="ray") == 8
            expected, got = _results(pool, agent), _results(on_ray, agent)
            assert len(got) == 8 and got == expected
            assert all(v[0] == "done" for v in got.values())


def test_an_interrupted_ray_run_keeps_what_finished_and_resumes(cluster, tmp_path):
    seen = []

    def stop_after_three(outcome) -> None:
        seen.append(outcome.spec.key)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with Store(tmp_path) as store:
        with pytest.raises(KeyboardInterrupt):
            evaluate.evaluate(store, "r", "random", TWO_TASKS, CONFIGS, 2, executor="ray",
                              workers=2, on_episode=stop_after_three)
        assert store.finished_keys("r") == set(seen)
        played = evaluate.evaluate(store, "r", "random", TWO_TASKS, CONFIGS, 2, executor="ray",
                                   workers=2)
        assert played == 5 and len(store.finished_keys("r")) == 8


def test_eval_command_joins_the_cluster_by_address(cluster, tmp_path):
    common = ["eval", "--agent", "random", "--tasks", "settings", "--configs", "test_env_100",
              "--repeats", "1", "--limit", "4", "--no-efficiency", "--json"]
    on_ray = bmoca_cli(*common, "--ray", cluster, "--out", "ray", cwd=tmp_path)
    assert on_ray.returncode == 0, on_ray.stderr
    pooled = bmoca_cli(*common, "--workers", "2", "--out", "pool", cwd=tmp_path)
    assert pooled.returncode == 0, pooled.stderr
    ray_cells, pool_cells = (json.loads(r.stdout)["cells"] for r in (on_ray, pooled))
    assert ray_cells == pool_cells and sum(c["episodes"] for c in ray_cells) == 4
    with Store(tmp_path / "ray") as a, Store(tmp_path / "pool") as b:
        assert _results(a, "ray") == _results(b, "pool")
    checked = bmoca_cli("validate", "--task", "settings/turn_on_wifi", "--configs",
                        "test_env_100,test_env_109", "--ray", cluster, "--json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["problems"] == []


def test_demos_generate_on_ray_records_what_the_pool_records(cluster, tmp_path):
    from bmoca.demos import load
    from bmoca.demos.generate import generate

    for name, executor in (("pool", "process"), ("ray", "ray")):
        generate(tmp_path / name, TWO_TASKS, CONFIGS, workers=2, executor=executor,
                 screen_width=64)
    def recorded(name: str) -> list:
        """Episodes as stored, each screenshot's path (numbered in completion order)
        replaced by its bytes."""
        dataset = load(tmp_path / name)
        out = []
        for e in sorted(dataset.episodes, key=lambda e: e.key):
            data = e.to_json()
            for step in [*data["steps"], data["final"]]:
                step["screenshot"] = (tmp_path / name / step["screenshot"]).read_bytes()
            out.append(data)
        return out

    on_ray, pooled = recorded("ray"), recorded("pool")
    assert len(on_ray) == 4 and on_ray == pooled


def test_ray_vector_env_steps_as_the_sync_vector_env(cluster):
    from functools import partial

    import gymnasium
    import numpy as np

    import bmoca
    from bmoca.env.ray_vector import RayVectorEnv

    make = partial(bmoca.make, "settings/turn_on_wifi", config="test_env_100",
                   observation=("text",), action="discrete", step_limit=3)
    on_ray, local = RayVectorEnv([make, make]), gymnasium.vector.SyncVectorEnv([make, make])

    def same(a: dict, b: dict) -> None:
        timing = {"reset_s", "_reset_s"}  # measured, not results
        assert a.keys() - timing == b.keys() - timing
        for key in a.keys() - timing:
            assert np.array_equal(np.asarray(a[key], dtype=object),
                                  np.asarray(b[key], dtype=object)), key

    try:
        assert on_ray.observation_space == local.observation_space
        assert on_ray.action_space == local.action_space
        (obs_a, info_a), (obs_b, info_b) = on_ray.reset(seed=5), local.reset(seed=5)
        assert obs_a == obs_b
        same(info_a, info_b)
        rng = np.random.default_rng(0)
        ends = 0
        for _ in range(8):  # episodes of 3 steps: both environments reset twice
            actions = rng.integers(0, 385, size=2)
            a, b = on_ray.step(actions), local.step(actions)
            assert a[0] == b[0]
            for x, y in zip(a[1:4], b[1:4], strict=True):
                assert np.array_equal(x, y)
            same(a[4], b[4])
            ends += int(a[3].sum())
        assert ends == 4
    finally:
        on_ray.close()
        local.close()


def test_model_calls_share_one_rate_limit_across_the_cluster(cluster):
    from bmoca.agents.llm.ratelimit import limiter, shared_pacer

    @ray.remote(num_cpus=1)
    def worker_slots(n: int) -> list[float]:
        """A worker's agent asks for slots as fast as it can, as a model agent would."""
        actor = shared_pacer("fake:model", 1200.0)  # the same actor every worker finds
        return [ray.get(actor.reserve.remote())[0] for _ in range(n)]

    slots = sorted(s for part in ray.get([worker_slots.remote(5), worker_slots.remote(5)])
                   for s in part)
    gaps = [b - a for a, b in zip(slots, slots[1:], strict=False)]
    assert len(slots) == 10 and min(gaps) >= 0.05 - 1e-9  # 1200 rpm: 50 ms apart, overall
    # the driver's agents join the same limiter: their next slot comes after all of those
    later, _ = ray.get(shared_pacer("fake:model", 1200.0).reserve.remote())
    assert later >= slots[-1] + 0.05 - 1e-9
    waits: list[float] = []
    limiter("fake:model", 1200.0, sleep=waits.append)()  # and wait for the one after it
    assert len(waits) == 1 and waits[0] >= 0.0
    # how long depends on how far ahead the workers booked; that it took the slot after
    # `later` shows in the slot the next caller gets
    after, _ = ray.get(shared_pacer("fake:model", 1200.0).reserve.remote())
    assert after >= later + 2 * 0.05 - 1e-9
