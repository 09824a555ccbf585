# frandrw: filled in by its issue.
