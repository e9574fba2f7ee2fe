"""The engine's application layer: planning and running sweeps, the RPC contract and the service behind JSON-RPC and browser mode."""
