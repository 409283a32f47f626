"""`--executor` and `--ray`: where `eval` and `validate` play their episodes."""

from __future__ import annotations

import typer

from bmoca.cli.common import bad, choice, error_line

EXECUTORS = ("process", "ray")
EXECUTOR_HELP = ("process: this machine's worker processes; ray: a running Ray cluster "
                 "(--ray ADDRESS, default auto), one actor per --workers or per cluster CPU")
RAY_HELP = ("address of a Ray cluster to play on (auto: the one this machine belongs to; "
            "ray://HOST:10001); implies --executor ray")


def resolve(executor: str, ray_address: str | None, device: str,
            workers: int) -> tuple[str, str | None, int]:
    """(executor, address, workers) checked, and the cluster reached; Ray's workers default
    (1 on the command line) means one actor per cluster CPU."""
    executor = choice("--executor", executor, EXECUTORS)
    if ray_address is not None:
        executor = "ray"
    if executor == "process":
        return executor, None, workers
    if device != "sim":
        raise bad("--executor", f"ray: a device over ADB is one phone; valid with --device "
                  f"{device}: process")
    from bmoca.eval import ray_executor

    try:
        ray_executor.connect(ray_address)
    except ray_executor.RayUnavailable as exc:
        if "not installed" in str(exc):
            raise bad("--executor", f"ray: {exc}") from None
        error_line(exc)
        raise typer.Exit(1) from None
    return executor, ray_address, 0 if workers == 1 else workers
