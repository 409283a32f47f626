"""`content`: insert, update, delete and query rows of a content provider, parsed and
answered as Android 10's `com.android.commands.content.Content` does (its usage text, its
"[ERROR]" lines, "Row: N col=value, ..." and "No result found."). The providers are
`bmoca/sim/system/providers.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bmoca.sim.shell.errors import Io
from bmoca.sim.system import providers

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool

USAGE = """\
usage: adb shell content [subcommand] [options]

usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...]
  <URI> a content provider URI.
  <BINDING> binds a typed value to a column and is formatted:
  <COLUMN_NAME>:<TYPE>:<COLUMN_VALUE> where:
  <TYPE> specifies data type such as:
  b - boolean, s - string, i - integer, l - long, f - float, d - double
  Note: Omit the value for passing an empty string, e.g column:s:
  Example:
  # Add "new_setting" secure setting with value "new_value".
  adb shell content insert --uri content://settings/secure --bind name:s:new_setting --bind value:s:new_value

usage: adb shell content update --uri <URI> [--user <USER_ID>] [--where <WHERE>]
  <WHERE> is a SQL style where clause in quotes (You have to escape single quotes - see example below).
  Example:
  # Change "new_setting" secure setting to "newer_value".
  adb shell content update --uri content://settings/secure --bind value:s:newer_value --where "name='new_setting'"

usage: adb shell content delete --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...] [--where <WHERE>]
  Example:
  # Remove "new_setting" secure setting.
  adb shell content delete --uri content://settings/secure --where "name='new_setting'"

usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>]
  <PROJECTION> is a list of colon separated column names and is formatted:
  <COLUMN_NAME>[:<COLUMN_NAME>...]
  <SORT_ORDER> is the order in which rows in the result should be sorted.
  Example:
  # Select "name" and "value" columns from secure settings where "name" is equal to "new_setting" and sort the result by name in ascending order.
  adb shell content query --uri content://settings/secure --projection name:value --where "name='new_setting'" --sort "name ASC"

"""

_OPTIONS = {  # what each operation accepts besides --uri and --user
    "insert": {"--bind"}, "update": {"--bind", "--where"}, "delete": {"--where"},
    "query": {"--where", "--projection", "--sort"},
}


class _BadArguments(ValueError):
    pass


def _java_long(text: str) -> int:
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit() or not -2**63 <= int(text) < 2**63:
        raise _BadArguments(f'For input string: "{text}"')
    return int(text)


def _java_double(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise _BadArguments(f'For input string: "{text}"') from None


def _binding(argument: str | None) -> tuple[str, Any]:
    """`column:type:value`, typed as Parser.parseBindValue types it."""
    if not argument or argument.count(":") < 2:
        raise _BadArguments(f"Binding not well formed: {argument}")
    column, kind, value = argument.split(":", 2)
    if kind == "s":
        return column, value
    if kind.lower() == "b":
        return column, int(value.lower() == "true")
    if kind.lower() in ("i", "l"):
        return column, _java_long(value)
    if kind.lower() in ("f", "d"):
        return column, _java_double(value)
    raise _BadArguments(f"Unsupported type: {kind}")


def _parse(args: list[str]) -> dict[str, Any]:
    operation = args[0] if args else None
    if operation not in _OPTIONS:
        raise _BadArguments(f"Unsupported operation: {operation}")
    parsed: dict[str, Any] = {"op": operation, "bind": {}}
    rest = iter(args[1:])
    for argument in rest:
        if argument != "--uri" and argument != "--user" and argument not in _OPTIONS[operation]:
            raise _BadArguments(f"Unsupported argument: {argument}")
        if argument == "--bind":
            column, value = _binding(next(rest, None))
            parsed["bind"][column] = value
            continue
        value = next(rest, None)
        if not value or value.startswith("--"):
            raise _BadArguments(f"No value for argument: {argument}")
        if argument == "--user":
            _java_long(value)
        parsed[argument[2:]] = value
    if "uri" not in parsed:
        raise _BadArguments("Content provider URI not specified. Did you specify --uri argument?")
    if operation in ("insert", "update") and not parsed["bind"]:
        raise _BadArguments("Bindings not specified. Did you specify --bind argument(s)?")
    return parsed


def _split_uri(uri: str) -> tuple[str, str]:
    """Uri.getAuthority and the path after it (query and fragment dropped)."""
    rest = uri.split("://", 1)[1] if "://" in uri else ""
    rest = rest.split("?", 1)[0].split("#", 1)[0]
    authority, _, path = rest.partition("/")
    return authority, path


def _value_text(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return "BLOB"
    return str(value)


def cmd_content(sh: Session, args: list[str], io: Io) -> int:
    try:
        parsed = _parse(args)
    except _BadArguments as error:
        io.out(USAGE + "\n")
        io.out(f"[ERROR] {error}\n")
        return 0
    uri = parsed["uri"]
    authority, path = _split_uri(uri)
    provider = providers.PROVIDERS.get(authority)
    if provider is None:
        io.err(f"Error while accessing provider:{authority}\n"
               f"java.lang.IllegalStateException: Could not find provider: {authority}\n")
        return 0
    ctx = providers.Context(sh.vfs, sh.system.state.clock.now_ms)
    try:
        if parsed["op"] == "insert":
            providers.insert(provider, uri, path, parsed["bind"], ctx)
        elif parsed["op"] == "update":
            providers.update(provider, uri, path, parsed["bind"], parsed.get("where"), ctx)
        elif parsed["op"] == "delete":
            providers.delete(provider, uri, path, parsed.get("where"), ctx)
        else:
            projection = parsed["projection"].split(":") if "projection" in parsed else None
            names, rows = providers.query(provider, uri, path, projection, parsed.get("where"),
                                          parsed.get("sort"), ctx)
            if not rows:
                io.out("No result found.\n")
            for index, row in enumerate(rows):
                cells = ", ".join(f"{n}={_value_text(v)}" for n, v in zip(names, row, strict=True))
                io.out(f"Row: {index} {cells}\n")
    except providers.ProviderError as error:
        io.err(f"Error while accessing provider:{authority}\n{error.java_class}: {error}\n")
    return 0


COMMANDS: dict[str, Tool] = {"content": cmd_content}
