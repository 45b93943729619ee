#ifndef TETHER_SCREEN_RESTORE_H
#define TETHER_SCREEN_RESTORE_H

#include <stddef.h>

/*
 * Puts a full-screen view's terminal back when tether dies of a signal it does not
 * otherwise handle: a crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS)
 * or a signal whose default action ends the process (SIGUSR1, SIGUSR2, SIGALRM,
 * SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT, SIGPIPE). The handler only
 * calls async-signal-safe functions (signal-safety(7)): it puts back the armed terminal
 * settings (tcsetattr), writes the armed bytes to a file descriptor, puts back the
 * handler that was there before (the Swift runtime's crash reporter, or the default
 * action) and raises the signal again, so the process ends exactly as it would have.
 *
 * Signals that are ignored when armed are left alone. Thread-safe to arm and disarm;
 * the bytes are copied (at most 512).
 */

/// Writes `bytes` to `fd` if the process dies of one of the signals above, from now
/// until `tether_screen_restore_disarm`. Returns 0, or -1 when `length` is too long.
int tether_screen_restore_arm(int fd, const char *bytes, size_t length);

/// Also puts `settings` (a `struct termios` of `length` bytes, copied) back on the
/// terminal `fd` (TCSANOW) on those signals, before the bytes are written, until
/// `tether_screen_restore_disarm`; arms the signals as `tether_screen_restore_arm` does
/// (with no bytes if none were armed). Returns 0, or -1 when `length` is not the size of
/// a `struct termios`. (`void *`, so that this module does not hand Swift a second
/// `termios` beside Glibc's.)
int tether_screen_restore_arm_settings(int fd, const void *settings, size_t length);

/// Stops writing anything on those signals and puts their previous handlers back.
void tether_screen_restore_disarm(void);

#endif
