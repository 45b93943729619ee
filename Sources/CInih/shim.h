#ifndef TETHER_CINIH_SHIM_H
#define TETHER_CINIH_SHIM_H
// inih, the INI file parser, from Debian's libinih-dev (/usr/include/ini.h): the
// reader of the named-devices configuration file (docs/CONFIG.md). tio reads its
// `[name]` sections with the same library.
#include <ini.h>
#endif
