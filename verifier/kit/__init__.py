"""Kits shared by rulesets: plane geometry and drawing."""
