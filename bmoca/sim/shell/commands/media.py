"""`media volume`: the audio service's stream volumes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bmoca.sim.shell.errors import Io
from bmoca.sim.shell.helpers import java_int
from bmoca.sim.system.audio import STREAMS

if TYPE_CHECKING:
    from bmoca.sim.shell.session import Session, Tool


MEDIA_USAGE = """\
usage: media [subcommand] [options]
       media dispatch KEY
       media list-sessions
       media monitor <tag>
       media volume [options]

media dispatch: dispatch a media key to the system.
                KEY may be: play, pause, play-pause, mute, headsethook,
                stop, next, previous, rewind, record, fast-forword.
media list-sessions: print a list of the current sessions.
media monitor: monitor updates to the specified session.
                       Use the tag from list-sessions.
media volume:  the options are as follows:\x20
                --stream STREAM selects the stream to control, see AudioManager.STREAM_*
                                controls AudioManager.STREAM_MUSIC if no stream is specified
                --set INDEX     sets the volume index value
                --adj DIRECTION adjusts the volume, use raise|same|lower for the direction
                --get           outputs the current volume
                --show          shows the UI during the volume change
        examples:
                adb shell media volume --show --stream 3 --set 11
                adb shell media volume --stream 0 --adj lower
                adb shell media volume --stream 3 --get
"""


def cmd_media(sh: Session, args: list[str], io: Io) -> int:
    if not args:
        io.out(MEDIA_USAGE)
        return 0
    sub, rest = args[0], args[1:]
    if sub == "volume":
        return _media_volume(sh, rest, io)
    if sub == "dispatch":
        keys = ("play", "pause", "play-pause", "mute", "headsethook", "stop", "next",
                "previous", "rewind", "record", "fast-forword")
        if not rest or rest[0] not in keys:
            return _media_error(io, f"Error: unknown dispatch code '{rest[0] if rest else ''}'")
        return 0
    if sub == "list-sessions":
        io.out("Sessions Service Dump:\n")
        return 0
    return _media_error(io, f"Error: unknown command '{sub}'")


def _media_error(io: Io, message: str) -> int:
    """BaseCommand.showError: the usage, a blank line and the error, all on stderr."""
    io.err(MEDIA_USAGE + "\n" + message + "\n")
    return 1


def _media_volume(sh: Session, args: list[str], io: Io) -> int:
    """VolumeCtrl: `[v]` progress lines in argument order, then the action."""
    stream, level, mode, adjust, do_get = 3, 5, None, None, False

    def log(message: str) -> None:
        io.out(f"[v] {message}\n")

    i = 0
    while i < len(args):
        option = args[i]
        i += 1
        if option in ("--stream", "--set", "--adj"):
            if i >= len(args):
                return _media_error(io, f'Error: Argument expected after "{option}"')
            raw = args[i]
            i += 1
            if option == "--adj":
                mode, adjust = "adj", raw
                log("will adjust volume")
                continue
            try:
                number = java_int(raw)
            except ValueError as exc:
                return _media_error(io, f"Error: {exc}")
            if option == "--stream":
                stream = number
                name = STREAMS[number].name if number in STREAMS else {
                    7: "STREAM_SYSTEM_ENFORCED", 9: "STREAM_TTS"}.get(number, "invalid stream")
                log(f"will control stream={number} ({name})")
            else:
                mode, level = "set", number
                log(f"will set volume to index={number}")
        elif option == "--get":
            do_get = True
            log("will get volume")
        elif option == "--show":
            continue
        else:
            return _media_error(io, f"Error: Unknown argument {option}")
    if mode == "adj" and adjust not in ("lower", "same", "raise"):
        return _media_error(io, f"Error: no valid volume adjustment, was {adjust}, "
                                     "expected lower|same|raise")
    log("Connecting to AudioService")
    if stream not in STREAMS:
        if mode is not None or do_get:
            return _media_error(io, f"Error: Bad stream type {stream}")
        return 0
    spec = STREAMS[stream]
    audio = sh.system.state.audio
    if mode == "set":
        if not spec.min <= level <= spec.max:
            return _media_error(io, f"Error: invalid volume index {level} for stream "
                                         f"{stream} (should be in [{spec.min}..{spec.max}])")
        sh.system.set_volume(stream, level)
    elif mode == "adj" and adjust != "same":
        sh.system.set_volume(stream, audio.get(stream) + (1 if adjust == "raise" else -1))
    if do_get:
        log(f"volume is {audio.get(stream)} in range [{spec.min}..{spec.max}]")
    return 0


COMMANDS: dict[str, Tool] = {
    "media": cmd_media,
}
