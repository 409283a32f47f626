"""bmoca's tasks as environments of RL environment hubs, so trainers built on a hub's
environment interface train on the phone without glue.

`bmoca.hubs.verifiers_env`: the `verifiers` package (Prime Intellect's environments,
trained on with prime-rl); installed as the taskset `bmoca-verifiers` (the top-level
`bmoca_verifiers` package). Each hub's module imports its hub's package, which is an
optional extra (`pip install 'bmoca[verifiers]'`); importing `bmoca.hubs` imports none.
"""
