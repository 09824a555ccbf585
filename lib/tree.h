/* tree.h: remove a directory tree through descriptors, never following a
 * symlink or crossing into another file system. */
#ifndef FSBENCH_TREE_H
#define FSBENCH_TREE_H

#include <sys/types.h>

/* PATH and everything under it; 0 when it is gone (or was never there). */
int tree_remove(const char *path);
/* The same, only if PATH is still the directory DEV:INO. */
int tree_remove_if(const char *path, dev_t dev, ino_t ino);
/* The directory open as FD, named NAME in the directory PARENT. */
int tree_remove_fd(int parent, const char *name, int fd);
/* Everything under PATH, which stays. */
int tree_empty(const char *path);

#endif
