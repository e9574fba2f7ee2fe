"""The command line: flags mapped onto the engine's requests; only this package exits the process."""
