# The cases here belong to the discs ruleset, which is registered only inside the tests
# that need it; the verifier pytest plugin must not collect them as case files.
collect_ignore = ["cases"]
