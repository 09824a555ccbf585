/* target.h: make the file under test without ever writing where we should
 * not, and remove what we made on every way out.  See "Not losing the
 * user's data" in fsbench(7). */
#ifndef FSBENCH_TARGET_H
#define FSBENCH_TARGET_H

#include <signal.h>

#include "sig.h"
#include <stdbool.h>
#include <stdint.h>

#define TARGET_FORCE	0x1	/* an existing regular file may be reused */

struct target {
	char path[4096];
	int fd;
	bool created;		/* we made it, so we remove it */
};

/* Open a file to measure under PATH.  A directory gets a new
 * ".PREFIX.XXXXXX" file made with O_EXCL; a path that does not exist is
 * created with O_CREAT|O_EXCL|O_NOFOLLOW; an existing regular file is used
 * only with TARGET_FORCE; symlinks, hard-linked files, FIFOs and devices
 * are always refused.  OFLAGS adds to O_RDWR (O_DIRECT, O_SYNC).  Returns 0;
 * -2 when the target is refused (a usage error: exit 2); -1 when the system
 * failed (exit 1).  The message is already printed, warn(3) style. */
int target_open(struct target *t, const char *path, const char *prefix,
    unsigned flags, int oflags);
/* Close, and unlink if we created it and KEEP is false.  Returns 0 or -1
 * (a failed close is an error we report). */
int target_close(struct target *t, bool keep);

/* Refuse (return -1, message printed) when BYTES more cannot fit on the
 * file system of PATH. */
int target_check_space(const char *path, uint64_t bytes);

/* lib/sig's handlers, and the files registered below removed at exit. */
void target_install_signals(void);
/* Remove every registered file not kept, then die of sig_caught
 * (lib/sig). */
__attribute__((noreturn)) void target_die(void);

/* Files registered here are removed by target_cleanup() and target_die();
 * target_open registers what it creates, target_close unregisters. */
void target_register(const char *path);
void target_unregister(const char *path);
void target_cleanup(void);

#endif
