"""The installed packages: one module per app."""

from __future__ import annotations

from bmoca.sim.apps.base import App


def installed_apps() -> dict[str, App]:
    """Every package the phone has, keyed by package name (a fresh instance per device)."""
    from bmoca.sim.apps import calculator, clock, generic, keyboard, launcher, settings, systemui

    apps: list[App] = [launcher.Launcher(), systemui.SystemUI(), keyboard.Gboard(),
                       settings.SettingsApp(), calculator.CalculatorApp(),
                       clock.ClockApp()]
    from bmoca.sim.apps import contacts, messages
    apps += [contacts.ContactsApp(), messages.MessagesApp()]
    from bmoca.sim.apps import dialer, incall
    apps += [dialer.DialerApp(), incall.TelecomApp()]
    have = {app.package for app in apps}
    apps += [generic.app_for(info) for info in generic.unimplemented(have)]
    return {app.package: app for app in apps}
