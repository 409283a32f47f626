"""System properties (`getprop` / `setprop`)."""

from __future__ import annotations

DEFAULT_PROPS: dict[str, str] = {
    "ro.build.version.release": "10",
    "ro.build.version.sdk": "29",
    "ro.build.type": "userdebug",
    "ro.build.id": "QSR1.190920.001",
    "ro.build.fingerprint": "google/sdk_gphone_x86_64/generic_x86_64:10/QSR1.190920.001/5891938:userdebug/dev-keys",
    "ro.product.brand": "google",
    "ro.product.manufacturer": "Google",
    "ro.product.cpu.abi": "x86_64",
    "ro.hardware": "ranchu",
    "ro.kernel.qemu": "1",
    "ro.secure": "1",
    "ro.debuggable": "1",
    "sys.boot_completed": "1",
    "dev.bootcomplete": "1",
    "init.svc.bootanim": "stopped",
    "persist.sys.locale": "en-US",
    "persist.sys.timezone": "GMT",
    "ro.sf.lcd_density": "440",
    "gsm.sim.operator.alpha": "Android",
    "gsm.operator.alpha": "Android",
}


START_COUNT_PROP = "sys.system_server.start_count"
"""How many times system_server has started since the kernel booted (SystemServer's
SYSPROP_START_COUNT): the way to tell a framework restart from the old framework."""


def product_props(model: str, device: str) -> dict[str, str]:
    name = device.replace(" ", "_").lower()
    return {"ro.product.model": model, "ro.product.name": name, "ro.product.device": name}
