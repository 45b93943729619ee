#ifndef TETHER_CLIBVTERM_SHIM_H
#define TETHER_CLIBVTERM_SHIM_H
#include <vterm.h>
#endif
