"""Audio streams with Android 10's ranges, defaults and aliases."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Stream:
    id: int
    name: str
    min: int
    max: int
    default: int
    settings_key: str
    logged: bool
    """SystemUI's vol.Events writes level_changed only for these streams."""


STREAMS: dict[int, Stream] = {s.id: s for s in (
    Stream(0, "STREAM_VOICE_CALL", 1, 5, 4, "volume_voice_speaker", True),
    Stream(1, "STREAM_SYSTEM", 0, 7, 5, "volume_system_speaker", True),
    Stream(2, "STREAM_RING", 0, 7, 5, "volume_ring_speaker", True),
    Stream(3, "STREAM_MUSIC", 0, 15, 5, "volume_music_speaker", True),
    Stream(4, "STREAM_ALARM", 1, 7, 6, "volume_alarm_speaker", True),
    Stream(5, "STREAM_NOTIFICATION", 0, 7, 5, "volume_notification_speaker", False),
    Stream(6, "STREAM_BLUETOOTH_SCO", 0, 15, 7, "volume_bluetooth_sco", True),
    Stream(8, "STREAM_DTMF", 0, 15, 11, "volume_dtmf", False),
    Stream(10, "STREAM_ACCESSIBILITY", 1, 15, 11, "volume_accessibility", False),
)}

ALIASES = {1: 2, 5: 2}
"""On phones SYSTEM and NOTIFICATION follow RING."""


@dataclass
class AudioState:
    levels: dict[int, int] = field(default_factory=lambda: {i: s.default for i, s in STREAMS.items()})

    def get(self, stream: int) -> int:
        return self.levels[stream]

    def set(self, stream: int, level: int) -> list[int]:
        """Clamp and set; returns the streams whose level changed (aliases included)."""
        stream = ALIASES.get(stream, stream)
        spec = STREAMS[stream]
        level = max(spec.min, min(spec.max, level))
        changed = []
        for sid in [stream] + [a for a, target in ALIASES.items() if target == stream]:
            lo, hi = STREAMS[sid].min, STREAMS[sid].max
            value = max(lo, min(hi, level))
            if self.levels[sid] != value:
                self.levels[sid] = value
                changed.append(sid)
        return changed
