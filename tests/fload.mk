# fload tool tests: filled in by its issue.
