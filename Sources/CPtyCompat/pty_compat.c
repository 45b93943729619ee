/*
 * ioctl interposer: modem-line emulation for pseudo-terminal slaves.
 *
 * Why: libserialport 0.1.1 (Debian's) reads the modem lines with TIOCMGET while
 * opening and configuring a port, and a pty slave answers ENOTTY, so sp_open and
 * every sp_set_* fail on /dev/pts/N (socat, tether-sim, test harnesses). Upstream
 * declined pty support (sigrokproject/libserialport pull request 4). Rather than a
 * second transport for ptys, tether keeps one libserialport transport and supplies
 * this `ioctl`, which the linker binds for libserialport's calls because the
 * executable defines the symbol.
 *
 * What: every request goes to the kernel first, unchanged, with syscall(SYS_ioctl).
 * Only if that fails with ENOTTY, the request is TIOCMGET/TIOCMSET/TIOCMBIS/TIOCMBIC
 * and the descriptor is a pty slave (character major 136–143) is the request
 * answered from an emulated per-device state, kept for the life of the process:
 *   - TIOCMSET/TIOCMBIS/TIOCMBIC change the emulated DTR and RTS bits (other bits
 *     are ignored);
 *   - TIOCMGET reports DTR and RTS as last set (both asserted until set), CTS, DSR
 *     and DCD asserted, RI clear — unless the program on the master side (tether-sim)
 *     set the pty's window size to TETHER_SIMULATED_LINES_MAGIC pixels wide: its
 *     height in pixels then holds the input lines it plays (TIOCM_CTS, TIOCM_DSR,
 *     TIOCM_CAR, TIOCM_RNG bits). A pty has no other channel from master to slave
 *     beside the bytes, and the window size is shared by both ends.
 * Real serial ports, pty masters and all other requests see the kernel's answer.
 *
 * Announcements: a pty has no modem lines and ignores a break (the kernel answers
 * TIOCSBRK/TIOCCBRK with success and does nothing), so the program at the master (a
 * simulator) cannot see what a serial device would. After each emulated change of
 * DTR/RTS, and after each TIOCSBRK/TIOCCBRK on a pty slave, one datagram goes to the
 * abstract Unix socket "tether-pty-lines/<major>:<minor>" of the slave (when nobody
 * listens, nothing happens): "L<n>" with the TIOCM_DTR|TIOCM_RTS bits now set, or
 * "B1"/"B0" for break on/off. The simulator listens there (Simulator/README.md,
 * "Modem lines and breaks").
 */
#define _GNU_SOURCE
#include "pty_compat.h"

#include <errno.h>
#include <linux/serial.h>
#include <stddef.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

enum { EMULATED_DEVICE_SLOTS = 64 };

/* Input lines a pty slave reports as asserted (see pty_compat.h). */
static const int always_asserted_lines = TIOCM_CTS | TIOCM_DSR | TIOCM_CAR;

struct emulated_lines {
    dev_t device;      /* st_rdev of the pty slave; 0 = free slot */
    int output_lines;  /* TIOCM_DTR | TIOCM_RTS as last set */
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct emulated_lines table[EMULATED_DEVICE_SLOTS];
static unsigned int next_evicted_slot;

static int is_pty_slave_device(const struct stat *status) {
    unsigned int major_number = major(status->st_rdev);
    return S_ISCHR(status->st_mode) && major_number >= 136 && major_number <= 143;
}

/* The slot for `device` (a pty slave's st_rdev), claimed with DTR and RTS asserted
 * on first use; when all slots are taken the oldest claim is reused. Pty numbers are
 * reused too, so a new pty may find the lines its predecessor left. Called with
 * table_lock held. */
static struct emulated_lines *slot_for(dev_t device) {
    for (unsigned int i = 0; i < EMULATED_DEVICE_SLOTS; i++) {
        if (table[i].device == device) return &table[i];
    }
    for (unsigned int i = 0; i < EMULATED_DEVICE_SLOTS; i++) {
        if (table[i].device == 0) {
            table[i] = (struct emulated_lines){device, TIOCM_DTR | TIOCM_RTS};
            return &table[i];
        }
    }
    struct emulated_lines *slot = &table[next_evicted_slot];
    next_evicted_slot = (next_evicted_slot + 1) % EMULATED_DEVICE_SLOTS;
    *slot = (struct emulated_lines){device, TIOCM_DTR | TIOCM_RTS};
    return slot;
}

/* Sends `message` to the listener of pty slave `device`, if any; never blocks, never fails. */
static void announce(dev_t device, const char *message) {
    int descriptor = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (descriptor < 0) return;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    int length = snprintf(address.sun_path + 1, sizeof(address.sun_path) - 1, "tether-pty-lines/%u:%u",
                          major(device), minor(device));
    int saved = errno;
    sendto(descriptor, message, strlen(message), MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&address,
           (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + length));
    close(descriptor);
    errno = saved;
}

/* The input lines the master side plays (see above), or the fixed ones. */
static int emulated_input_lines(int fd) {
    struct winsize size;
    if (syscall(SYS_ioctl, fd, TIOCGWINSZ, &size) == 0 && size.ws_xpixel == TETHER_SIMULATED_LINES_MAGIC) {
        return size.ws_ypixel & (TIOCM_CTS | TIOCM_DSR | TIOCM_CAR | TIOCM_RNG);
    }
    return always_asserted_lines;
}

static int emulate_modem_request(int fd, dev_t device, unsigned long request, int *argument) {
    if (argument == NULL) {
        errno = EFAULT;
        return -1;
    }
    const int output_mask = TIOCM_DTR | TIOCM_RTS;
    pthread_mutex_lock(&table_lock);
    struct emulated_lines *slot = slot_for(device);
    switch (request) {
    case TIOCMGET:
        *argument = slot->output_lines | emulated_input_lines(fd);
        break;
    case TIOCMSET:
        slot->output_lines = *argument & output_mask;
        break;
    case TIOCMBIS:
        slot->output_lines |= *argument & output_mask;
        break;
    default: /* TIOCMBIC */
        slot->output_lines &= ~(*argument & output_mask);
        break;
    }
    int lines = slot->output_lines;
    pthread_mutex_unlock(&table_lock);
    if (request != TIOCMGET) {
        char message[16];
        snprintf(message, sizeof message, "L%d", lines);
        announce(device, message);
    }
    return 0;
}

/* Same prototype as glibc's <sys/ioctl.h>. Like glibc, the optional third argument
 * is taken as a pointer-sized value. */
int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);

    long result = syscall(SYS_ioctl, fd, request, argument);
    if (result == 0 && (request == TIOCSBRK || request == TIOCCBRK)) {
        struct stat status;
        if (fstat(fd, &status) == 0 && is_pty_slave_device(&status)) {
            announce(status.st_rdev, request == TIOCSBRK ? "B1" : "B0");
        }
        return 0;
    }
    if (result != -1 || errno != ENOTTY) return (int)result;
    if (request != TIOCMGET && request != TIOCMSET && request != TIOCMBIS && request != TIOCMBIC) {
        return -1;
    }
    struct stat status;
    if (fstat(fd, &status) != 0 || !is_pty_slave_device(&status)) {
        errno = ENOTTY;
        return -1;
    }
    return emulate_modem_request(fd, status.st_rdev, request, argument);
}

int tether_tty_get_modem_counts(int fd, int counts[5]) {
    struct serial_icounter_struct icount;
    if (syscall(SYS_ioctl, fd, TIOCGICOUNT, &icount) != 0) return -1;
    counts[0] = icount.cts;
    counts[1] = icount.dsr;
    counts[2] = icount.dcd;
    counts[3] = icount.rng;
    counts[4] = icount.overrun + icount.buf_overrun;
    return 0;
}
