"""The desktop app's contract, defined once: every RPC method's params and result (by topic: runs,
specs, hosts, analysis), the notifications and errors (``methods``), emitted as JSON Schema for the
TypeScript side."""
