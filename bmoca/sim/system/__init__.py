"""Android system services of the simulated phone; all their state is plain picklable data."""
