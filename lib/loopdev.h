/* loopdev.h: attach a file to a free loop device and detach it, through
 * /dev/loop-control and the loop ioctls (no losetup).  Used by fmatrix and
 * fcrash. */
#ifndef FSBENCH_LOOPDEV_H
#define FSBENCH_LOOPDEV_H

#include <stdbool.h>
#include <stddef.h>

/* Attach BACKING_FD to a free loop device with autoclear, and with direct
 * I/O when DIRECT and the backing file system allows it.  Writes
 * /dev/loopN to PATH and returns an open descriptor of the device, or -1
 * with a warning printed. */
int loopdev_attach(int backing_fd, bool direct, char *path, size_t len);
/* Detach: the device goes away when FD, the last opener, closes. */
void loopdev_detach(int fd, const char *path);

#endif
