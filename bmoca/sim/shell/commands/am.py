"""The activity manager: `am` (start, force-stop, kill, broadcast, stack list) and `monkey`."""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import SHELL_PACKAGE, SHELL_PID, Io, java_exception
from bmoca.sim.shell.helpers import java_int
from bmoca.sim.system.intent import (
    ACTION_MAIN,
    CATEGORY_HOME,
    CATEGORY_LAUNCHER,
    FLAG_ACTIVITY_NEW_TASK,
    Intent,
)
from bmoca.sim.system.server import HOME_PACKAGE

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


AM_HELP = """\
Activity manager (activity) commands:
  help
      Print this help text.
  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]
          [--sampling INTERVAL] [--streaming] [-R COUNT] [-S]
          [--track-allocation] [--user <USER_ID> | current] <INTENT>
      Start an Activity.  Options are:
      -W: wait for launch to complete
      -S: force stop the target app before starting the activity
      --user <USER_ID> | current: Specify which user to run as; if not
          specified then run as the current user.
  force-stop [--user <USER_ID> | all | current] <PACKAGE>
      Completely stop the given application package.
  kill [--user <USER_ID> | all | current] <PACKAGE>
      Kill all background processes associated with the given application.
  kill-all
      Kill all processes that are safe to kill (cached, etc).
  broadcast [--user <USER_ID> | all | current] <INTENT>
      Send a broadcast Intent.  Options are:
      --user <USER_ID> | all | current: Specify which user to send to; if not
          specified then send to all users.
      --receiver-permission <PERMISSION>: Require receiver to hold permission.
  restart
      Restart the user-space system.
  get-current-user
      Returns id of the current foreground user.
  stack list
      List all of the activity stacks and their sizes.

<INTENT> specifications include these flags and arguments:
    [-a <ACTION>] [-d <DATA_URI>] [-t <MIME_TYPE>]
    [-c <CATEGORY> [-c <CATEGORY>] ...]
    [-n <COMPONENT_NAME>]
    [-e|--es <EXTRA_KEY> <EXTRA_STRING_VALUE> ...]
    [--esn <EXTRA_KEY> ...]
    [--ez <EXTRA_KEY> <EXTRA_BOOLEAN_VALUE> ...]
    [--ei <EXTRA_KEY> <EXTRA_INT_VALUE> ...]
    [--el <EXTRA_KEY> <EXTRA_LONG_VALUE> ...]
    [--ef <EXTRA_KEY> <EXTRA_FLOAT_VALUE> ...]
    [-f <FLAG>]
    [--activity-clear-task] [--activity-clear-top] [--activity-single-top]
    [--activity-no-history] [--activity-reorder-to-front] [--activity-new-task]
    [<URI> | <PACKAGE> | <COMPONENT>]
"""
_INTENT_FLAG_OPTIONS = {
    "--grant-read-uri-permission": 0x1, "--grant-write-uri-permission": 0x2,
    "--grant-persistable-uri-permission": 0x40, "--grant-prefix-uri-permission": 0x80,
    "--debug-log-resolution": 0x8, "--exclude-stopped-packages": 0x10,
    "--include-stopped-packages": 0x20, "--activity-brought-to-front": 0x00400000,
    "--activity-clear-top": 0x04000000, "--activity-clear-when-task-reset": 0x00080000,
    "--activity-exclude-from-recents": 0x00800000, "--activity-launched-from-history": 0x00100000,
    "--activity-multiple-task": 0x08000000, "--activity-no-animation": 0x00010000,
    "--activity-no-history": 0x40000000, "--activity-no-user-action": 0x00040000,
    "--activity-previous-is-top": 0x01000000, "--activity-reorder-to-front": 0x00020000,
    "--activity-reset-task-if-needed": 0x00200000, "--activity-single-top": 0x20000000,
    "--activity-clear-task": 0x00008000, "--activity-task-on-home": 0x00004000,
    "--activity-match-external": 0x00000800, "--activity-new-task": 0x10000000,
    "--receiver-registered-only": 0x40000000, "--receiver-replace-pending": 0x20000000,
    "--receiver-foreground": 0x10000000, "--receiver-no-abort": 0x08000000,
    "--receiver-include-background": 0x01000000,
}
_EXTRA_OPTIONS = ("--ei", "--eu", "--ecn", "--eia", "--eial", "--el", "--ela", "--elal",
                  "--ef", "--efa", "--efal", "--esa", "--esal", "--ez", "--ed")
_AM_VALUE_OPTIONS = ("-P", "--start-profiler", "--sampling", "--attach-agent",
                     "--attach-agent-bind", "-R", "--display", "--windowingMode",
                     "--activityType", "--task", "--receiver-permission", "--user")
_AM_PLAIN_OPTIONS = ("-D", "-N", "--streaming", "--track-allocation", "--task-overlay",
                     "--lock-task", "--allow-background-activity-starts", "--background")
FLAG_RECEIVER_FROM_SHELL = 0x00400000
_MONKEY_VALUE_OPTIONS = ("-s", "--throttle", "--pkg-blacklist-file", "--pkg-whitelist-file",
                         "--port", "--setup", "-f", "--profile-wait", "--device-sleep-time")


def cmd_am(sh: Session, args: list[str], io: Io) -> int:
    return am_service(sh, args, io)


def am_service(sh: Session, args: list[str], io: Io) -> int:
    if not args or args[0] in ("help", "-h"):
        io.out(AM_HELP)
        return 255
    sub, rest = args[0], args[1:]
    if sub in ("start", "start-activity"):
        return _am_start(sh, rest, io)
    if sub == "force-stop":
        return _am_force_stop(sh, rest, io)
    if sub == "kill":
        return _am_kill(sh, rest, io)
    if sub == "kill-all":
        foreground = sh.system.am.state.foreground
        for package in list(sh.system.am.state.processes):
            if foreground is None or foreground.package != package:
                sh.system.am.kill_process(package, "kill all background")
        return 0
    if sub == "broadcast":
        return _am_broadcast(sh, rest, io)
    if sub == "stack" and rest[:1] == ["list"]:
        return _am_stack_list(sh, io)
    if sub == "restart":
        sh.device.restart_framework()
        return 0
    if sub == "task" and rest[:1] == ["lock"]:
        return 0  # screen pinning is not simulated; the task stays as it is
    if sub == "get-current-user":
        io.out("0\n")
        return 0
    if sub in ("startservice", "start-service", "start-foreground-service",
               "startforegroundservice"):
        intent, _ = _parse_intent(sh, rest)
        io.out(f"Starting service: Intent {{ {intent.short_string()} }}\n")
        io.err("Error: Not found; no service started.\n")
        return 255
    io.out(f"Unknown command: {sub}\n")
    return 255


def _parse_intent(sh: Session, args: list[str]) -> tuple[Intent, dict]:
    """Intent.parseCommandArgs plus am's own options (-W, -S, --user, ...)."""
    intent = Intent()
    options: dict = {"wait": False, "stop": False}
    categories: list[str] = []
    has_info = False
    i = 0

    def value(option: str) -> str:
        nonlocal i
        if i >= len(args):
            raise java_exception(f'Argument expected after "{option}"')
        i += 1
        return args[i - 1]

    while i < len(args):
        option = args[i]
        i += 1
        if option == "-a":
            intent.action, has_info = value(option), True
        elif option == "-d":
            intent.data, has_info = value(option), True
        elif option == "-t":
            intent.mime_type, has_info = value(option), True
        elif option == "-c":
            categories.append(value(option))
            has_info = True
        elif option == "-n":
            text = value(option)
            component = _unflatten(text)
            if component is None:
                raise java_exception(f"Bad component name: {text}")
            intent.component, has_info = component, True
        elif option == "-p":
            intent.package, has_info = value(option), True
        elif option == "-f":
            text = value(option)
            try:
                intent.flags = java_int(text)
            except ValueError as exc:
                raise java_exception(str(exc), "java.lang.NumberFormatException") from None
            has_info = True
        elif option in ("-e", "--es"):
            key = value(option)
            intent.extras[key] = value(option)
            has_info = True
        elif option == "--esn":
            intent.extras[value(option)] = None
            has_info = True
        elif option in _EXTRA_OPTIONS:
            key, text = value(option), value(option)
            if option in ("--ei", "--el"):
                try:
                    java_int(text)
                except ValueError as exc:
                    raise java_exception(str(exc), "java.lang.NumberFormatException") from None
            intent.extras[key] = text
            has_info = True
        elif option in _INTENT_FLAG_OPTIONS:
            intent.flags |= _INTENT_FLAG_OPTIONS[option]
            has_info = True
        elif option == "-W":
            options["wait"] = True
        elif option == "-S":
            options["stop"] = True
        elif option in _AM_VALUE_OPTIONS:
            options[option] = value(option)
        elif option in _AM_PLAIN_OPTIONS:
            continue
        elif option.startswith("-") and option != "-":
            raise java_exception(f"Unknown option: {option}")
        else:
            has_info = True
            if ":" in option:
                intent.data = option
            elif "/" in option:
                component = _unflatten(option)
                if component is None:
                    raise java_exception(f"Bad component name: {option}")
                intent.component = component
            else:
                intent.package = option
    intent.categories = tuple(categories)
    if not has_info:
        raise java_exception("No intent supplied")
    return intent, options


def _unflatten(text: str) -> tuple[str, str] | None:
    package, slash, cls = text.partition("/")
    if not slash or not package or not cls:
        return None
    return package, package + cls if cls.startswith(".") else cls


def _am_start(sh: Session, args: list[str], io: Io) -> int:
    intent, options = _parse_intent(sh, args)
    if options.get("--user", "0") not in ("0", "current", "cur"):
        raise java_exception(f"Invalid user: {options['--user']}")
    io.out(f"Starting: Intent {{ {intent.short_string()} }}\n")
    note = io.out if options["wait"] else io.err
    launch = copy.copy(intent)
    launch.extras = dict(intent.extras)
    launch.flags |= FLAG_ACTIVITY_NEW_TASK
    if launch.component is None and launch.action == ACTION_MAIN:
        if CATEGORY_HOME in launch.categories:
            home = sh.app(HOME_PACKAGE)
            if home is not None:
                launch.component = (HOME_PACKAGE, next(iter(home.activities)))
        elif CATEGORY_LAUNCHER in launch.categories and launch.package:
            cls = sh.launcher_activity(launch.package)
            if cls is not None:
                launch.component = (launch.package, cls)
    if options["stop"]:
        target = (launch.component or (None,))[0] or launch.package
        if target:
            force_stop(sh, target, f"from pid {SHELL_PID}")
    am = sh.system.am
    before_top = am.top_record()
    known = {id(r) for t in [am.state.home, *am.state.recents] if t for r in t.records}
    processes = set(am.state.processes)
    serial = sh.system.state.logs.serial
    if not am.start_activity(launch, caller=SHELL_PACKAGE, caller_uid=sh.uid):
        if intent.component is not None:
            package, cls = intent.component
            note(f"Error type 3\nError: Activity class {{{package}/{cls}}} does not exist.\n")
        else:
            note("Error: Activity not started, unable to resolve "
                 f"Intent {{ {launch.short_string()} }}\n")
        return 1
    top = am.top_record()
    reused = top is not None and id(top) in known
    if reused:
        note("Warning: Activity not started, its current task has been brought to the front\n"
               if top is not before_top else
               "Warning: Activity not started, intent has been delivered to currently "
               "running top-most instance.\n")
    if options["wait"] and top is not None:
        displayed = None
        for entry in sh.system.state.logs.since(serial):
            m = re.match(r"Displayed (\S+): \+(\d+)ms", entry.message)
            if entry.tag == "ActivityTaskManager" and m:
                displayed = int(m.group(2))
        state = ("HOT" if reused else "COLD" if set(am.state.processes) - processes
                 or top.package not in processes else "WARM")
        io.out("Status: ok\n")
        io.out(f"LaunchState: {state}\n")
        io.out(f"Activity: {top.component}\n")
        if displayed is not None:
            io.out(f"TotalTime: {displayed}\n")
        io.out(f"WaitTime: {(displayed or 0) + 12}\nComplete\n")
    return 0


def force_stop(sh: Session, package: str, reason: str) -> None:
    """ActivityManager.forceStopPackage: log, kill the process, drop the package's tasks."""
    app = sh.app(package)
    if app is None:
        return
    am = sh.system.am
    sh.log_system("I", "ActivityManager",
                     f"Force stopping {package} appid={app.uid % 100000} user=0: {reason}")
    am.kill_process(package, f"stop {package}")
    for task in list(am.state.recents):
        if task.package == package:
            am.remove_task(task.id)


def _am_force_stop(sh: Session, args: list[str], io: Io) -> int:
    args = drop_user(args)
    if not args:
        raise java_exception('Argument expected after "force-stop"')
    force_stop(sh, args[0], f"from pid {SHELL_PID}")
    return 0


def drop_user(args: list[str]) -> list[str]:
    if len(args) >= 2 and args[0] == "--user":
        return args[2:]
    return args


def _am_kill(sh: Session, args: list[str], io: Io) -> int:
    args = drop_user(args)
    if not args:
        raise java_exception('Argument expected after "kill"')
    foreground = sh.system.am.state.foreground
    if foreground is None or foreground.package != args[0]:
        sh.system.am.kill_process(args[0], "kill background")
    return 0


def _am_broadcast(sh: Session, args: list[str], io: Io) -> int:
    from bmoca.sim.apps.base import Context

    intent, _ = _parse_intent(sh, args)
    intent.flags |= FLAG_RECEIVER_FROM_SHELL
    io.out(f"Broadcasting: Intent {{ {intent.short_string()} }}\n")
    if intent.action:
        target = intent.component[0] if intent.component else intent.package
        if target is None:
            sh.system.broadcast(intent.action)
        elif sh.app(target) is not None:
            sh.app(target).on_broadcast(Context(sh.system, target), intent.action)
    io.out("Broadcast completed: result=0\n")
    return 0


def _am_stack_list(sh: Session, io: Io) -> int:
    """ActivityManager.StackInfo lines, front stack first (one stack per task)."""
    am = sh.system.am.state
    width, height, *_ = sh.display_metrics()
    bounds = f"[0,0][{width},{height}]"
    config = sh.configuration()
    tasks = [t for t in [*reversed(am.recents), am.home] if t is not None]
    if am.foreground is not None and am.foreground in tasks:
        tasks.remove(am.foreground)
        tasks.insert(0, am.foreground)
    for task in tasks:
        root = task.records[0] if task.records else None
        top = task.top
        visible = "true" if task is am.foreground else "false"
        io.out(f"Stack id={task.id} bounds={bounds} displayId=0 userId=0\n")
        io.out(f" configuration={config}\n")
        name = f"{root.package}/{root.cls}" if root else task.package
        line = f"  taskId={task.id}: {name} bounds={bounds} userId=0 visible={visible}"
        if top is not None:
            line += f" topActivity=ComponentInfo{{{top.package}/{top.cls}}}"
        io.out(line + "\n")
    return 0


def cmd_monkey(sh: Session, args: list[str], io: Io) -> int:
    io.out("".join(f"  bash arg: {a}\n" for a in args))
    packages: list[str] = []
    categories: list[str] = []
    count: int | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in ("-p", "-c") or arg in _MONKEY_VALUE_OPTIONS or arg.startswith("--pct-"):
            if i >= len(args):
                io.err(f"** Error: option {arg} requires an argument\n")
                return 255
            if arg == "-p":
                packages.append(args[i])
            elif arg == "-c":
                categories.append(args[i])
            i += 1
        elif arg.startswith("-"):
            if arg not in ("-v", "--ignore-crashes", "--ignore-timeouts", "--hprof",
                           "--ignore-security-exceptions", "--monitor-native-crashes",
                           "--ignore-native-crashes", "--kill-process-after-error",
                           "--dbg-no-events", "--wait-dbg", "--randomize-throttle",
                           "--bugreport"):
                io.err(f"** Error: Unknown option: {arg}\n")
                return 255
        elif arg.isdigit():
            count = int(arg)
        else:
            io.err(f"** Error: Invalid argument: {arg}\n")
            return 255
    io.out(f"args: [{', '.join(args)}]\n" + "".join(f' arg: "{a}"\n' for a in args))
    io.out("".join(f'data="{v}"\n' for v in packages + categories))
    if count is None:
        io.err("** Error: Count not specified\n")
        return 255
    if not packages:
        io.err("** Error: this simulator's monkey needs -p PACKAGE (it injects no random "
               "events)\n")
        return 1
    if categories and CATEGORY_LAUNCHER not in categories\
            and "android.intent.category.MONKEY" not in categories:
        io.err("** No activities found to run, monkey aborted.\n")
        return 251
    for package in packages:
        cls = sh.launcher_activity(package)
        if cls is not None:
            sh.system.am.start_activity(Intent.launcher(package, cls), caller=SHELL_PACKAGE,
                                          caller_uid=sh.uid)
            break
    else:
        io.err("** No activities found to run, monkey aborted.\n")
        return 251
    io.out(f"Events injected: {count}\n"
           "## Network stats: elapsed time=16ms (0ms mobile, 0ms wifi, 16ms not connected)\n")
    return 0


COMMANDS: dict[str, Tool] = {
    "am": cmd_am,
    "monkey": cmd_monkey,
}
