"""Subcommands of the `houston` CLI, one module each."""
