# fcompare: filled in by its issue.
