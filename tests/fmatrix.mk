# fmatrix tool tests: filled in by its issue.
