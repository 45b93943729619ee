#ifndef TETHER_PTY_COMPAT_H
#define TETHER_PTY_COMPAT_H
/* Placeholder until the transport lands. */
int tether_pty_compat_placeholder(void);
#endif
