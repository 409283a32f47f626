"""The simulated phone as an ADB device: transport, services, console, registration.

`AdbEndpoint` serves any number of `SimDevice`s so the stock `adb` tool and every ADB
client see them as emulators (`bmoca serve-adb`).
"""

from bmoca.sim.adb.server import AdbEndpoint, ServedPhone, host_problem, is_loopback, register

__all__ = ["AdbEndpoint", "ServedPhone", "host_problem", "is_loopback", "register"]
