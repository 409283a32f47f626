"""The installed packages: one package per app (docs/apps.md says how an app is built).

`base.py` is the app pattern every app follows (App, Activity, Context, Swipe),
`generic.py` the apps whose screens are not simulated yet, and `bmoca.formats.apps` the
table of every package's name, label and launcher activity.
"""

from __future__ import annotations

from bmoca.sim.apps.base import App


def installed_apps() -> dict[str, App]:
    """Every package the phone has, keyed by package name (a fresh instance per device)."""
    from bmoca.sim.apps import generic
    from bmoca.sim.apps.calculator.app import CalculatorApp
    from bmoca.sim.apps.calendar.app import CalendarApp
    from bmoca.sim.apps.camera.app import CameraApp
    from bmoca.sim.apps.chrome.app import ChromeApp
    from bmoca.sim.apps.clock.app import ClockApp
    from bmoca.sim.apps.contacts.app import ContactsApp
    from bmoca.sim.apps.dialer.app import DialerApp
    from bmoca.sim.apps.dialer.incall import TelecomApp
    from bmoca.sim.apps.files.app import FilesApp
    from bmoca.sim.apps.gmail.app import GmailApp
    from bmoca.sim.apps.google.app import GoogleApp
    from bmoca.sim.apps.instagram.app import InstagramApp
    from bmoca.sim.apps.keyboard.app import Gboard
    from bmoca.sim.apps.launcher.app import Launcher
    from bmoca.sim.apps.maps.app import MapsApp
    from bmoca.sim.apps.messages.app import MessagesApp
    from bmoca.sim.apps.photos.app import PhotosApp
    from bmoca.sim.apps.settings.app import SettingsApp
    from bmoca.sim.apps.snapseed.app import SnapseedApp
    from bmoca.sim.apps.systemui.app import SystemUI
    from bmoca.sim.apps.walmart.app import WalmartApp
    from bmoca.sim.apps.wikipedia.app import WikipediaApp
    from bmoca.sim.apps.youtube.app import YouTubeApp

    apps: list[App] = [Launcher(), SystemUI(), Gboard(), SettingsApp(), CalculatorApp(),
                       ClockApp(), ContactsApp(), MessagesApp(), DialerApp(), TelecomApp(),
                       FilesApp(), ChromeApp(), SnapseedApp(), WikipediaApp(), WalmartApp(),
                       InstagramApp(), GmailApp(), MapsApp(), YouTubeApp(), PhotosApp(),
                       CameraApp(), CalendarApp(), GoogleApp()]
    have = {app.package for app in apps}
    apps += [generic.app_for(info) for info in generic.unimplemented(have)]
    return {app.package: app for app in apps}
