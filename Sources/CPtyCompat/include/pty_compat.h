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

/*
 * Modem lines that TIOCMGET reports on a pty slave: DTR and RTS as last set through
 * TIOCMSET/TIOCMBIS/TIOCMBIC (both asserted until then, as Linux raises them when a
 * real port is opened), CTS, DSR and DCD asserted, RI not — or, when the master side
 * set the window size (TIOCSWINSZ) to TETHER_SIMULATED_LINES_MAGIC pixels wide, the
 * input lines its height in pixels holds (TIOCM_CTS, TIOCM_DSR, TIOCM_CAR, TIOCM_RNG):
 * how tether-sim drops DCD or rings RI on a pty.
 */

/// The window width in pixels (`ws_xpixel`) that says the height holds simulated lines.
#define TETHER_SIMULATED_LINES_MAGIC 0x5453

/// Reads the driver's counts (TIOCGICOUNT) of changes of CTS, DSR, DCD and RI into
/// `counts[0...3]`, in that order, and of overruns (the UART's and the driver's
/// buffer's) into `counts[4]`. Returns 0, or -1 with errno (a pty, a driver that keeps
/// none).
int tether_tty_get_modem_counts(int fd, int counts[5]);

/// Reads the modem-control lines (TIOCMGET, `TIOCM_*` bits) into `*lines`, through
/// the process's `ioctl` (so emulated on a pty slave). Returns 0, or -1 with errno.
int tether_tty_get_modem_lines(int fd, int *lines);

/// Sets the `TIOCM_*` bits in `set` and clears those in `clear` (DTR and RTS) with one
/// TIOCMSET after a TIOCMGET, so both lines change in one call (through the process's
/// `ioctl`, so emulated and announced on a pty slave). Returns 0, or -1 with errno.
int tether_tty_set_modem_lines(int fd, int set, int clear);

/// Turns on the driver's RS-485 mode (TIOCSRS485, <linux/serial.h>): RTS asserted
/// while sending, `delay_before_ms` ms before the first bit and `delay_after_ms` ms
/// after the last. Drivers without it (and ptys) answer ENOTTY or EINVAL. Returns 0,
/// or -1 with errno.
int tether_tty_set_rs485(int fd, unsigned int delay_before_ms, unsigned int delay_after_ms);

/// Reads the input and output baud rates (baud) with TCGETS2, which also reports
/// non-standard (BOTHER) rates. Works on a pty master, which shares its slave's
/// termios. Returns 0, or -1 with errno.
int tether_tty_get_speeds(int fd, unsigned int *input_baud, unsigned int *output_baud);

#endif
