#ifndef TETHER_SIGNAL_RECORD_H
#define TETHER_SIGNAL_RECORD_H

/*
 * Records, in the thread the kernel delivers it to, the first of the signals a command
 * traps. A dispatch signal source hands a signal on through libdispatch's manager
 * thread and a queue, so a command ending for another reason (its input ended) can
 * exit before the source's handler runs; this record is there at once.
 */

/// Puts a recorder in front of `signo`'s current action (libdispatch's, once a
/// dispatch signal source for it is registered), which it then calls as before. An
/// action that is "ignore" stays in place behind the recorder.
void tether_signal_record_install(int signo);

/// The first signal recorded since start, or 0 when none came.
int tether_signal_record_first(void);

#endif
