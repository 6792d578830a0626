"""verifier: a visual rules verifier and scenario test harness for spatial game rules."""

__version__ = "0.1.0"
