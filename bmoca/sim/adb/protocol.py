"""The ADB transport's wire format: 24-byte headers, commands, versions, banners.

Facts from the AOSP protocol as checked against adb 29 and adb 36 (see the project's
`adb_protocol_notes.md` §1): six little-endian uint32 per header, the checksum is a byte
sum sent only below version 0x01000001, and hosts check only magic and length.
"""

from __future__ import annotations

import struct

A_SYNC = 0x434E5953
A_CNXN = 0x4E584E43
A_AUTH = 0x48545541
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_CLSE = 0x45534C43
A_WRTE = 0x45545257
A_STLS = 0x534C5453

A_VERSION_MIN = 0x01000000
A_VERSION = 0x01000001  # A_VERSION_SKIP_CHECKSUM: no checksums from here on
MAX_PAYLOAD = 1024 * 1024
SYNC_DATA_MAX = 64 * 1024

HEADER = struct.Struct("<6I")

# Only what is implemented: the host uses a feature when both sides list it.
FEATURES = ("shell_v2", "cmd", "stat_v2")

NAMES = {A_SYNC: "SYNC", A_CNXN: "CNXN", A_AUTH: "AUTH", A_OPEN: "OPEN", A_OKAY: "OKAY",
         A_CLSE: "CLSE", A_WRTE: "WRTE", A_STLS: "STLS"}


class ProtocolError(Exception):
    """The peer sent something that is not an ADB packet; the connection is dropped."""


def checksum(payload: bytes) -> int:
    return sum(payload) & 0xFFFFFFFF


def pack(command: int, arg0: int, arg1: int, payload: bytes = b"", with_checksum: bool = False) -> bytes:
    """One packet: header then payload; the checksum only for pre-0x01000001 peers."""
    check = checksum(payload) if with_checksum else 0
    return HEADER.pack(command, arg0, arg1, len(payload), check, command ^ 0xFFFFFFFF) + payload


def unpack_header(data: bytes) -> tuple[int, int, int, int]:
    """(command, arg0, arg1, data_length); raises ProtocolError on a bad magic."""
    command, arg0, arg1, length, _check, magic = HEADER.unpack(data)
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic on packet 0x{command:08x}")
    if length > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {length} bytes is over the {MAX_PAYLOAD} limit")
    return command, arg0, arg1, length


def banner(product: str, model: str, device: str) -> bytes:
    """The device's CNXN payload; `adb devices -l` shows product, model and device."""
    return (f"device::ro.product.name={product};ro.product.model={model};"
            f"ro.product.device={device};features={','.join(FEATURES)}").encode()


# -- shell v2 packet framing ------------------------------------------------------------------
SHELL_STDIN, SHELL_STDOUT, SHELL_STDERR, SHELL_EXIT, SHELL_CLOSE_STDIN, SHELL_WINDOW = range(6)
SHELL_HEADER = struct.Struct("<BI")


def shell_packet(kind: int, data: bytes) -> bytes:
    return SHELL_HEADER.pack(kind, len(data)) + data
