"""Messages (`com.google.android.apps.messaging`).

- `app.py`: the conversation list, a conversation, the new-conversation picker, the app.

Messages are kept by the telephony provider, `bmoca.sim.system.telephony`.
"""
