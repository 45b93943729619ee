#ifndef TETHER_ABORT_ORIGIN_H
#define TETHER_ABORT_ORIGIN_H

/*
 * Tells a SIGABRT another process sent (`kill -ABRT PID`: si_code SI_USER or SI_TKILL
 * with another process's pid) from one tether raised itself (`abort()` in a C library,
 * which raises it with tether's own pid). The Swift runtime's crash reporter answers
 * both; for a signal sent from outside it prints a crash report and lets tether go on.
 */

/// Puts an action in front of SIGABRT's current one (the Swift runtime's crash
/// reporter), unless SIGABRT is ignored. tether's own abort goes on to that action, so
/// it is still a crash report. Another process's is sent on to tether as
/// ``tether_abort_origin_stand_in()`` once ``tether_abort_origin_forward()`` was
/// called (a command traps it and ends cleanly), else it ends tether by SIGABRT's
/// default action (exit status 128 + 6). Call once, first thing in `main`.
void tether_abort_origin_install(void);

/// The signal a SIGABRT from another process is sent on as: SIGRTMIN, which nothing
/// else in tether uses.
int tether_abort_origin_stand_in(void);

/// From now on, a SIGABRT from another process is sent on as the stand-in signal.
void tether_abort_origin_forward(void);

#endif
