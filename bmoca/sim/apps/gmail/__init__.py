"""Gmail (`com.google.android.gm`): `app.py` holds the launcher alias's trampoline and the
inbox (MailActivityGmail) with its search bar and compose button."""
