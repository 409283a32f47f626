"""Run the layout checks everywhere: every named screen in every configuration, and every
frame of the experts' episodes. Prints one line per issue; exits 1 if there is any.

    python tools/layout_sweep.py                       # presets + display matrix, all screens
    python tools/layout_sweep.py --configs test_env_108 --experts all
    python tools/layout_sweep.py --configs matrix --screens home,drawer
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default="presets,matrix",
                        help="comma-separated: presets, matrix (every device x density x font "
                             "scale) or configuration ids")
    parser.add_argument("--screens", default="all", help="all or comma-separated screen names")
    parser.add_argument("--experts", default="none",
                        help="none, representative or all: also check every expert frame")
    args = parser.parse_args(argv)

    from bmoca import configs, tasks
    from bmoca.eval.layout_sweep import display_matrix, expert_frame_issues, screen_issues
    from bmoca.sim.screens import SCREENS, by_name

    chosen = []
    for part in args.configs.split(","):
        if part == "presets":
            chosen += [configs.get(c) for c in configs.ids()]
        elif part == "matrix":
            chosen += display_matrix()
        else:
            chosen.append(configs.get(part))
    try:
        screens = SCREENS if args.screens == "all" else [by_name(s) for s in
                                                         args.screens.split(",")]
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    start, count, problems = time.perf_counter(), 0, 0
    for config in chosen:
        for screen in screens:
            count += 1
            for line in screen_issues(config, screen.name):
                problems += 1
                print(line)
    if args.experts != "none":
        task_list = tasks.select(args.experts)
        for config in chosen:
            for line in expert_frame_issues(config.id, task_list):
                problems += 1
                print(line)
    print(f"{count} screens in {len(chosen)} configurations"
          f"{', experts: ' + args.experts if args.experts != 'none' else ''}: "
          f"{problems} issue(s), {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
