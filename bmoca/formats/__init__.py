"""Android artefacts in their real formats, shared by the simulator and the real-device tools."""
