"""Ruleset plugins, one subpackage each."""
