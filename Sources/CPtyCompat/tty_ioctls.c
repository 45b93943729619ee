/*
 * Non-variadic entry points for tty ioctls that Swift code needs; Swift does not
 * import C variadic functions such as ioctl.
 */
#include <asm/ioctls.h>
#include <asm/termbits.h>
#include <linux/serial.h>

#include "pty_compat.h"

/* As in <sys/ioctl.h>, which cannot be included together with <asm/termbits.h>. */
extern int ioctl(int fd, unsigned long request, ...);

int tether_tty_get_modem_lines(int fd, int *lines) {
    return ioctl(fd, TIOCMGET, lines);
}

int tether_tty_set_modem_lines(int fd, int set, int clear) {
    int lines = 0;
    if (ioctl(fd, TIOCMGET, &lines) != 0) return -1;
    lines = (lines | set) & ~clear;
    return ioctl(fd, TIOCMSET, &lines);
}

int tether_tty_get_speeds(int fd, unsigned int *input_baud, unsigned int *output_baud) {
    struct termios2 settings;
    if (ioctl(fd, TCGETS2, &settings) != 0) return -1;
    *input_baud = settings.c_ispeed;
    *output_baud = settings.c_ospeed;
    return 0;
}

int tether_tty_set_rs485(int fd, unsigned int delay_before_ms, unsigned int delay_after_ms) {
    struct serial_rs485 settings = {0};
    settings.flags = SER_RS485_ENABLED | SER_RS485_RTS_ON_SEND;
    settings.delay_rts_before_send = delay_before_ms;
    settings.delay_rts_after_send = delay_after_ms;
    return ioctl(fd, TIOCSRS485, &settings);
}
