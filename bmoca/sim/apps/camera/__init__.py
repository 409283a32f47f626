"""Camera (`com.android.camera2`): `app.py` holds the launcher's CameraLauncher trampoline
and CameraActivity (a drawn viewfinder, the shutter and the photo/video switch)."""
