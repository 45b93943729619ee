#ifndef TETHER_CLIBSERIALPORT_SHIM_H
#define TETHER_CLIBSERIALPORT_SHIM_H
#include <libserialport.h>
#endif
