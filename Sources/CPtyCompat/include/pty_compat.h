#ifndef TETHER_PTY_COMPAT_H
#define TETHER_PTY_COMPAT_H

/*
 * Pseudo-terminal compatibility for libserialport 0.1.1, and the few tty ioctls
 * Swift cannot reach directly (glibc's ioctl is variadic, which Swift does not
 * import).
 *
 * This target defines `ioctl` itself (pty_compat.c). Linked into an executable
 * or test binary, that definition takes precedence over glibc's for every caller
 * in the process, libserialport included. It forwards each request to the kernel
 * unchanged; only when the kernel answers ENOTTY to a modem-line request
 * (TIOCMGET, TIOCMSET, TIOCMBIS, TIOCMBIC) on a pseudo-terminal slave does it
 * answer from an emulated state instead. See pty_compat.c for the reasons and
 * the exact emulated values.
 */

/// Modem lines reported by TIOCMGET on a pty slave: the DTR and RTS bits as last
/// set through TIOCMSET/TIOCMBIS/TIOCMBIC (both asserted until then, as Linux
/// raises them when a real port is opened), with CTS, DSR and DCD always asserted
/// and RI never.
#define TETHER_PTY_ALWAYS_ASSERTED_LINES (0x020 | 0x100 | 0x040) /* TIOCM_CTS|TIOCM_DSR|TIOCM_CAR */

/// Returns 1 if `fd` is a pseudo-terminal slave (a character device with major
/// number 136–143, the Unix98 /dev/pts/N range), 0 otherwise.
int tether_is_pty_slave(int fd);

/// How many modem-line requests the compatibility layer has answered from its
/// emulated state in this process (used by tests to prove libserialport's calls
/// reach it).
unsigned long tether_pty_compat_emulated_count(void);

/// Reads the modem-control lines (TIOCMGET, `TIOCM_*` bits) into `*lines`, through
/// the process's `ioctl` (so emulated on a pty slave). Returns 0, or -1 with errno.
int tether_tty_get_modem_lines(int fd, int *lines);

/// Reads the input and output baud rates (baud) with TCGETS2, which also reports
/// non-standard (BOTHER) rates. Works on a pty master, which shares its slave's
/// termios. Returns 0, or -1 with errno.
int tether_tty_get_speeds(int fd, unsigned int *input_baud, unsigned int *output_baud);

#endif
