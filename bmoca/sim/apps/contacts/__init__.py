"""Contacts (`com.android.contacts`, AOSP Contacts).

- `app.py`: the list, the contact card, the editor and the contact picker;
- `ui.py`: letter tiles, toolbars and icon buttons (ContactsCommon's pieces, which
  Messages and the Dialer use too).

The contacts themselves live in the shared provider, `bmoca.sim.system.contacts`.
"""
