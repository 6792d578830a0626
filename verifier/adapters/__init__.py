"""Example implementations behind the adapter protocol (docs/protocol.md)."""
