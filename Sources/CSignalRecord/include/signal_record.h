#ifndef TETHER_SIGNAL_RECORD_H
#define TETHER_SIGNAL_RECORD_H

/*
 * The C side of the command line's signal trap (`SignalTrap`): an action for each
 * trapped signal that records the first one at once, in the thread the kernel
 * delivers it to, and writes its number to a pipe that tether's main thread reads and
 * hands on to the trap. The action does nothing else (a signal handler may only call
 * async-signal-safe functions).
 */

/// Opens the relay pipe (both ends close-on-exec, the writing end non-blocking) and
/// returns its reading end, or -1 with `errno` set. Call once, before any trap.
int tether_signal_record_open(void);

/// Gives `signo` the recording action (`SA_RESTART`, nothing blocked while it runs but
/// `signo`). A process that `exec`s from then on starts with `signo`'s default action.
/// Does nothing when the relay pipe is not open.
void tether_signal_record_install(int signo);

/// The first signal recorded since start, or 0 when none came.
int tether_signal_record_first(void);

#endif
