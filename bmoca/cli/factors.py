"""`bmoca configs` (list) and `bmoca configs derive` (one-factor-at-a-time variants)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import typer

from bmoca.cli.common import JSON_HELP, bad, console, print_json, split_option

VARY_HELP = ("FACTOR=VALUE[,VALUE...], repeatable; factors: device (a profile), density "
             "(0, 1, 2), locale, dark_theme (true, false), wallpaper, layout (a config id "
             "or stock), perturbation (none, light, heavy or KIND@STEP)")


def variations(vary: list[str] | None) -> dict[str, list[str]]:
    """--vary values, or the default grid (one or two values per factor)."""
    from bmoca.configs import derive

    if not vary:
        return {f: list(v) for f, v in derive.DEFAULT_VARIATIONS.items()}
    try:
        return derive.parse_vary(vary)
    except ValueError as exc:
        raise bad("--vary", str(exc)) from None


def factor_grid(bases: list[str], vary: list[str] | None) -> list[str]:
    """The bases and their one-factor variants; a bad value is a one-line --vary error."""
    from bmoca.configs import derive

    try:
        return derive.one_at_a_time(bases, variations(vary))
    except (KeyError, ValueError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise bad("--vary", str(message)) from None


def derive_command(
    base: str = typer.Argument(..., help="base configuration id(s), comma-separated or "
                               "ranges (e.g. train_env_000 or test_env_100..102)"),
    vary: list[str] = typer.Option(None, "--vary", help=VARY_HELP + " [default: one or two "
                                   "values of every factor]", show_default=False),
    out: Path = typer.Option(None, "--out", help="write the configurations to this YAML "
                             "file (default: print it)"),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Configurations that differ from BASE in one factor each: ids BASE+FACTOR=VALUE, which
    `bmoca eval --configs` takes as they are, written as a YAML data file."""
    from bmoca import configs
    from bmoca.configs import derive

    try:
        bases = configs.expand(base)
    except (KeyError, ValueError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise bad("BASE", str(message)) from None
    ids = [c for c in factor_grid(bases, vary) if derive.SEPARATOR in c]
    text = derive.to_yaml(ids)
    if out is not None:
        out.write_text(text, "utf-8")
    if as_json:
        rows = []
        for cid in ids:
            b, factor, value = derive.factor_of(cid)
            rows.append({"id": cid, "base": b, "factor": factor, "value": value})
        print_json(rows)
    elif out is None:
        console.file.write(text)
    else:
        console.file.write("\n".join(ids) + "\n")


def register(app: typer.Typer, list_configs: Callable[..., None]) -> None:
    """`bmoca configs [--split S] [--json]` lists; `bmoca configs derive ...` derives."""
    group = typer.Typer(rich_markup_mode=None, help=list_configs.__doc__)

    @group.callback(invoke_without_command=True)
    def configs(ctx: typer.Context,
                split: str = split_option("all", "train, test or all"),
                as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
        if ctx.invoked_subcommand is None:
            list_configs(split=split, as_json=as_json)

    group.command("derive")(derive_command)
    app.add_typer(group, name="configs")
