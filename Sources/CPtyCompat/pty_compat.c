#include "pty_compat.h"
int tether_pty_compat_placeholder(void) { return 0; }
