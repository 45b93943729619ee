#ifndef TETHER_CLIBDW_SHIM_H
#define TETHER_CLIBDW_SHIM_H
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#endif
