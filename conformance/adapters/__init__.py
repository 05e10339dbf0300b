"""Adapters: the only place that knows both the conformance protocol and an implementation."""
