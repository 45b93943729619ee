/*
 * What the benchmark's simulated devices (bench-device.c, bench-fleet.c) share: a
 * pseudo-terminal whose slave is raw and named by a symbolic link, a write that
 * finishes or fails, and the flag SIGTERM and SIGINT set to stop.
 */
#ifndef BENCH_PTY_H
#define BENCH_PTY_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

/* Set by SIGTERM or SIGINT (on_stop_signal): the device ends. */
static volatile sig_atomic_t stopping;

static void on_stop_signal(int signal_number) {
    (void)signal_number;
    stopping = 1;
}

/* Writes all `count` bytes, retrying interrupted writes unless stopping; -1 on an error. */
static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0) {
            if (errno == EINTR && !stopping) continue;
            return -1;
        }
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

/*
 * Opens a pty, makes its slave raw and links `link` to the slave (replacing what was
 * there). Returns the master, or -1 (errno set); the slave stays open until exit, so
 * a client's close never hangs the device up.
 */
static int open_device(const char *link) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return -1;
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    struct termios settings;
    if (slave < 0 || tcgetattr(slave, &settings) != 0) return -1;
    cfmakeraw(&settings);
    tcsetattr(slave, TCSANOW, &settings);
    unlink(link);
    if (symlink(ptsname(master), link) != 0) return -1;
    return master;
}

#endif
