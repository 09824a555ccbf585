# fmatrix: filled in by its issue.
