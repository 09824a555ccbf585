/* loopdev.c: attach an image file to a free loop device and detach it,
 * through /dev/loop-control and the loop ioctls (no losetup), with
 * autoclear so the kernel detaches the device once nothing holds it. */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "loopdev.h"

/* Direct I/O (fmatrix) on the backing file keeps the image's pages out of the page
 * cache, so a file system under test is not cached twice (once as its own
 * files, once as the image); the kernel falls back to buffered I/O where
 * the backing file system cannot do it.  fcrash wants buffered loop I/O
 * onto a FUSE file opened for direct I/O: every write reaches its daemon. */

/* Kernels before 5.8 have no LOOP_CONFIGURE: set the fd, then the flags. */
static int
configure_old(int lfd, int backing_fd, bool direct)
{
	struct loop_info64 info;

	if (ioctl(lfd, LOOP_SET_FD, backing_fd) == -1)
		return -1;
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	if (ioctl(lfd, LOOP_SET_STATUS64, &info) == -1) {
		int e = errno;

		ioctl(lfd, LOOP_CLR_FD, 0);
		errno = e;
		return -1;
	}
	/* Best effort, as LOOP_CONFIGURE would have done it. */
	if (direct)
		(void)ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL);
	return 0;
}

static int
configure(int lfd, int backing_fd, bool direct)
{
	struct loop_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (__u32)backing_fd;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR |
	    (direct ? LO_FLAGS_DIRECT_IO : 0);
	if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0)
		return 0;
	if (errno == EINVAL && (cfg.info.lo_flags & LO_FLAGS_DIRECT_IO)) {
		/* Some kernels refuse direct I/O outright for this file. */
		cfg.info.lo_flags &= ~(__u32)LO_FLAGS_DIRECT_IO;
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0)
			return 0;
	}
	if (errno == ENOTTY || errno == EINVAL)
		return configure_old(lfd, backing_fd, direct);
	return -1;
}

int
loopdev_attach(int backing_fd, bool direct, char *path, size_t len)
{
	int ctl, lfd = -1, tries;

	if ((ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC)) == -1) {
		warn("/dev/loop-control (is the loop module loaded?)");
		return -1;
	}
	/* Another process may take the free device between our asking and
	 * our configuring it (EBUSY): ask again, as losetup does. */
	for (tries = 0; tries < 16; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0) {
			warn("no free loop device");
			break;
		}
		snprintf(path, len, "/dev/loop%d", n);
		if ((lfd = open(path, O_RDWR | O_CLOEXEC)) == -1) {
			if (errno == ENOENT) {
				/* udev has not made the node yet */
				usleep(10000);
				continue;
			}
			warn("%s", path);
			break;
		}
		if (configure(lfd, backing_fd, direct) == 0) {
			close(ctl);
			return lfd;
		}
		if (errno != EBUSY) {
			warn("attach image to %s", path);
			break;
		}
		close(lfd);
		lfd = -1;
	}
	if (tries == 16)
		warnx("no free loop device after %d tries", tries);
	if (lfd != -1)
		close(lfd);
	close(ctl);
	return -1;
}

void
loopdev_detach(int fd, const char *path)
{
	/* With autoclear this only marks the device; it is released when we
	 * close the last descriptor, which we do now. */
	if (ioctl(fd, LOOP_CLR_FD, 0) == -1 && errno != ENXIO)
		warn("detach %s", path);
	close(fd);
}
