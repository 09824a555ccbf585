# fload: filled in by its issue.
