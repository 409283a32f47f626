"""Evaluation runs: a resumable SQLite results store and success-rate metrics over it."""
