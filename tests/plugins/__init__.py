# A package only so that pytest imports conftest.py here as "plugins.conftest" without
# putting this folder on sys.path, which would register the discs ruleset for every test.
