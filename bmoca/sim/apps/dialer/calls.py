"""Calls: what Telecom and the Dialer's InCallService keep about the calls in progress.

Placing a call logs what Android 10's Telecom logs (tag `Telecom`, `android.telecom.Log`'s
`<prefix>: <message>: <session>` form): `LogUtils: EventRecord added as Call: [TC@1, NEW,
...]` when its event record is made, the emergency-number line for 911 and 112, the
call's state events (`Event: RecordEntry TC@1: SET_DIALING, ...`); it starts the in-call
screen from the Dialer's process (`START ... cmp=com.android.dialer/
com.android.incallui.InCallActivity (has extras) from uid <dialer>`). Hanging up logs the
disconnect events, then `InCallController: onCallRemoved: [TC@1, DISCONNECTED, ...]` as
Telecom drops the call, and writes the call to the call log. A call is shown as
`Call.toString()` shows it, its number masked (`Log.piiHandle`: `tel:(***) ***-****`).

A second call holds the first, as Telecom makes room for it; ending the second brings the
held one back (still on hold). A third is refused (Telecom would end the held call for an
emergency call; here no third call is placed). Telecom's log session ids
(`NOCBIR.oR@AHE`: the method's abbreviation, `@`, a base-64 counter) come from a counter
in the Dialer's state, so they are deterministic.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bmoca.formats.phone_numbers import digits_of, format_as_you_type, is_emergency
from bmoca.sim.system import calllog, contacts
from bmoca.sim.system.intent import FLAG_ACTIVITY_NEW_TASK, Intent

if TYPE_CHECKING:
    from bmoca.sim.system.server import SystemServer

DIALER = "com.android.dialer"
MAIN = "com.android.dialer.main.impl.MainActivity"
INCALL = "com.android.incallui.InCallActivity"
FLAG_ACTIVITY_NO_USER_ACTION = 0x00040000
CONNECT_MS = 300
"""Uptime from dialling until the emulator's modem answers (a couple of steps)."""
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
CONNECTION_SERVICE = "com.android.phone/com.android.services.telephony.TelephonyConnectionService"
"""The ConnectionService of SIM calls, as `Call.toString()` names it once attached."""


@dataclass
class Call:
    """The call in progress, as InCallUI's DialerCall sees it."""

    telecom_id: int
    """Telecom's call id, logged as `TC@<n>`."""
    number: str
    """The dial string as placed, formatted as the dialpad showed it: `(202) 456-1111`."""
    name: str | None
    """The contact's display name when the number belongs to a contact."""
    numbertype: int | None
    lookup_uri: str | None
    emergency: bool
    dialed_uptime_ms: int
    dialed_epoch_ms: int
    handle: str = ""
    """The dialled string of the call's tel: URI (as the dialpad or the intent gave it)."""
    muted: bool = False
    speaker: bool = False
    held: bool = False
    keypad: bool = False
    dtmf: str = ""
    incoming: bool = False
    """Rang this phone (answered: logged as an incoming call)."""

    def active(self, uptime_ms: int) -> bool:
        return uptime_ms - self.dialed_uptime_ms >= CONNECT_MS

    def seconds(self, uptime_ms: int) -> int:
        """How long the call has been connected."""
        return max(0, (uptime_ms - self.dialed_uptime_ms - CONNECT_MS) // 1000)


@dataclass
class DialerData:
    """The Dialer's app-wide state (pickled with the phone)."""

    last_tab: str = "speed_dial"
    """speed_dial | call_log | contacts: the tab the main screen reopens on."""
    call: Call | None = None
    held_call: Call | None = None
    """The first of two calls, held while the second is in progress."""
    ringing: Call | None = None
    """An incoming call not yet answered (its heads-up or the in-call screen shows it)."""
    next_call_id: int = 1
    session_counter: int = 2760
    extra: dict = field(default_factory=dict)


def data_of(system: SystemServer) -> DialerData:
    data = system.state.app_data.get(DIALER)
    if not isinstance(data, DialerData):
        data = DialerData()
        system.state.app_data[DIALER] = data
    return data


def _session(data: DialerData, method: str) -> str:
    n = data.session_counter
    data.session_counter += 17
    return f"{method}@{_B64[(n >> 12) & 63]}{_B64[(n >> 6) & 63]}{_B64[n & 63]}"


def _telecom(system: SystemServer, message: str) -> None:
    """Telecom runs in system_server."""
    system.log_system("I", "Telecom", message)


def _masked(handle: str) -> str:
    """Log.piiHandle of a tel: URI: each dialable character (PhoneNumberUtils.isDialable:
    digits, * # + and N) becomes `*`; the rest stays."""
    return "tel:" + "".join("*" if c.isdigit() or c in "*#+N" else c for c in handle)


def _described(call: Call, state: str, attached: bool) -> str:
    """Telecom's Call.toString() (Android 10): id, state, ConnectionService, masked handle,
    video state (A: audio only), children, parent, capabilities and properties. A SIM call
    that can be held (not an emergency call) supports hold; every SIM call can be muted."""
    caps = "" if not attached else (
        " CAPABILITY_MUTE" if call.emergency else " CAPABILITY_SUPPORT_HOLD CAPABILITY_MUTE")
    return (f"[TC@{call.telecom_id}, {state}, {CONNECTION_SERVICE if attached else 'null'}, "
            f"{_masked(call.handle)}, A, childs(0), has_parent(false), [Capabilities:{caps}], "
            "[Properties:]]")


def display_number(number: str) -> str:
    """A bare dial string formatted as the dialpad would; formatted text stays as it is."""
    return number if number != digits_of(number) else format_as_you_type(number)


def place_call(system: SystemServer, number: str, session: str = "TSI.pC") -> Call | None:
    """Telecom places an outgoing call and InCallUI shows it; None for an empty number or
    when two calls are already up. `session` names the Telecom entry point that placed it
    (`TSI.pC` TelecomServiceImpl.placeCall from the Dialer, `UCA.oC` a CALL intent)."""
    dial = digits_of(number)
    if not dial:
        return None
    data = data_of(system)
    if data.held_call is not None:
        return None
    if data.call is not None:
        _hold(system, data.call)
    emergency = is_emergency(dial)
    call_id = data.next_call_id
    data.next_call_id += 1
    contact = None if emergency else contacts.find_by_number(system.state.vfs, dial)
    phone = None
    if contact is not None:
        phone = next((p for p in contact.phones if contacts.same_number(p.number, dial)), None)
    clock = system.state.clock
    call = Call(telecom_id=call_id, number=display_number(number),
                name=contact.display_name if contact else None,
                numbertype=phone.type if phone else None,
                lookup_uri=contact.lookup_uri if contact else None, emergency=emergency,
                dialed_uptime_ms=clock.uptime_ms, dialed_epoch_ms=clock.now_ms, handle=number)
    place = _session(data, session)
    _telecom(system, f"LogUtils: EventRecord added as Call: {_described(call, 'NEW', False)}: "
             + place)
    if emergency:
        _telecom(system, "CreateConnectionProcessor: Emergency number detected: "
                 + _session(data, "NOCBIR.oR"))
    data.call = call
    _telecom(system, f"Event: RecordEntry TC@{call_id}: SET_DIALING, successful outgoing call: "
             + _session(data, "CSW.hCCC"))
    system.am.start_activity(
        Intent(component=(DIALER, INCALL), flags=FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_NO_USER_ACTION,
               extras={"InCallActivity.for_full_screen_intent": False,
                       "InCallActivity.show_dialpad": False}),
        caller=DIALER)
    return call


def _hold(system: SystemServer, call: Call) -> None:
    """CallsManager.makeRoomForOutgoingCall: the call in progress goes on hold."""
    data = data_of(system)
    call.held = True
    data.held_call, data.call = call, None
    _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: SET_HOLD, on-hold set "
             "explicitly: " + _session(data, "CSW.sOH"))


def hang_up(system: SystemServer) -> None:
    """End the call in progress: Telecom's disconnect events and its removal, a call-log
    row; the in-call screen closes, or shows the held call if there is one."""
    data = data_of(system)
    call = data.call
    if call is None:
        return
    data.call, data.held_call = data.held_call, None
    _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: REQUEST_DISCONNECT, null: "
             + _session(data, "ICA.dC"))
    _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: SET_DISCONNECTED, disconnected "
             "set explicitly> DisconnectCause [ Code: (LOCAL) Label: () Description: () "
             "Reason: (LOCAL) Tone: (27) ]: " + _session(data, "CSW.sD"))
    _telecom(system, f"InCallController: onCallRemoved: {_described(call, 'DISCONNECTED', True)}: "
             + _session(data, "CSW.rC"))
    uptime = system.state.clock.uptime_ms
    calllog.add_call(system.state.vfs, digits_of(call.number), call.dialed_epoch_ms,
                     call.seconds(uptime),
                     calllog.INCOMING_TYPE if call.incoming else calllog.OUTGOING_TYPE,
                     name=call.name, numbertype=call.numbertype, lookup_uri=call.lookup_uri)
    if data.call is not None:
        return
    close_incall(system)


# -- incoming calls (a perturbation rings the phone) ------------------------------------------

def ring(system: SystemServer, number: str) -> Call | None:
    """The network delivers a call: Telecom adds it as RINGING and the Dialer posts its
    heads-up. None while a call is up or another rings (call waiting is not modelled: the
    network gives the caller a busy tone and the phone logs a missed call)."""
    data = data_of(system)
    clock = system.state.clock
    dial = digits_of(number)
    if data.call is not None or data.held_call is not None or data.ringing is not None:
        calllog.add_call(system.state.vfs, dial, clock.now_ms, 0, calllog.MISSED_TYPE)
        return None
    contact = contacts.find_by_number(system.state.vfs, dial)
    call = Call(telecom_id=data.next_call_id, number=display_number(number),
                name=contact.display_name if contact else None, numbertype=None,
                lookup_uri=contact.lookup_uri if contact else None, emergency=False,
                dialed_uptime_ms=clock.uptime_ms, dialed_epoch_ms=clock.now_ms,
                handle=dial, incoming=True)
    data.next_call_id += 1
    data.ringing = call
    _telecom(system, f"LogUtils: EventRecord added as Call: {_described(call, 'NEW', False)}: "
             + _session(data, "CSW.hCCC"))
    _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: SET_RINGING, successful "
             "incoming call: " + _session(data, "CSW.sR"))
    return call


def answer(system: SystemServer) -> None:
    """Answer the ringing call: it connects at once and the in-call screen shows it."""
    data = data_of(system)
    call = data.ringing
    if call is None:
        return
    data.ringing = None
    clock = system.state.clock
    call.dialed_uptime_ms, call.dialed_epoch_ms = clock.uptime_ms - CONNECT_MS, clock.now_ms
    data.call = call
    _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: REQUEST_ACCEPT, null: "
             + _session(data, "ICA.aC"))
    _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: SET_ACTIVE, active set "
             "explicitly: " + _session(data, "CSW.sA"))
    show_incall(system)


def show_incall(system: SystemServer) -> None:
    """InCallUI's screen, over whatever is in front."""
    system.am.start_activity(
        Intent(component=(DIALER, INCALL), flags=FLAG_ACTIVITY_NEW_TASK
               | FLAG_ACTIVITY_NO_USER_ACTION), caller=DIALER)


def reject(system: SystemServer, missed: bool = False) -> None:
    """Decline the ringing call (or let it ring out, `missed`): Telecom disconnects it and
    the call log has a rejected (or missed) call; an in-call screen showing it closes."""
    data = data_of(system)
    call = data.ringing
    if call is None:
        return
    data.ringing = None
    cause = "(MISSED) Label: () Description: () Reason: (INCOMING_MISSED) Tone: (-1)" \
        if missed else "(REJECTED) Label: () Description: () Reason: (INCOMING_REJECTED) Tone: (-1)"
    if not missed:
        _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: REQUEST_REJECT, null: "
                 + _session(data, "ICA.rC"))
    _telecom(system, f"Event: RecordEntry TC@{call.telecom_id}: SET_DISCONNECTED, disconnected "
             f"set explicitly> DisconnectCause [ Code: {cause} ]: " + _session(data, "CSW.sD"))
    calllog.add_call(system.state.vfs, digits_of(call.number), call.dialed_epoch_ms, 0,
                     calllog.MISSED_TYPE if missed else calllog.REJECTED_TYPE, name=call.name,
                     lookup_uri=call.lookup_uri)
    if data.call is None:
        close_incall(system)


def close_incall(system: SystemServer) -> None:
    am = system.am
    for task in [*am.state.recents]:
        for record in [r for r in task.records if r.cls == INCALL]:
            am.finish(record)
