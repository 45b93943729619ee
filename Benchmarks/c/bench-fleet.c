/*
 * bench-fleet: many slow pseudo-terminal devices in one process, for scripts/bench's
 * many-devices figure (see docs/PERFORMANCE.md).
 *
 * Usage: bench-fleet DIR COUNT RATE
 *
 * Opens COUNT ptys, makes their slaves raw, points the symlinks DIR/device-0 …
 * DIR/device-(COUNT-1) at them, prints "ready" on stdout and waits. SIGUSR1 starts the
 * stream: each device writes RATE 40-byte numbered lines a second (a 10-digit sequence
 * number from 0, then the fixed 30-byte tail of bench-device.c), all devices in step,
 * until SIGUSR2; then each writes "END n\n" (n = its lines) and the fleet serves until
 * SIGTERM (or SIGINT). A device whose reader is too slow blocks the fleet, so a lost
 * line is the reader's loss, never the fleet's.
 *
 * The fleet keeps each slave descriptor open, so a client may open and close a port
 * without hanging it up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "bench-pty.h"

enum { LINE_LENGTH = 40, MAXIMUM_DEVICES = 1024 };

static const char line_tail[] = " the quick brown fox jumps...\n"; /* 30 bytes */

static volatile sig_atomic_t streaming;
static volatile sig_atomic_t ending;

static void on_start_signal(int signal_number) { (void)signal_number; streaming = 1; }
static void on_end_signal(int signal_number) { (void)signal_number; ending = 1; }

int main(int argc, char **argv) {
    if (argc != 4 || atoi(argv[2]) < 1 || atoi(argv[2]) > MAXIMUM_DEVICES || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: bench-fleet DIR COUNT(1-%d) RATE\n", MAXIMUM_DEVICES);
        return 64;
    }
    int count = atoi(argv[2]);
    long rate = atol(argv[3]);
    static int masters[MAXIMUM_DEVICES];
    static char links[MAXIMUM_DEVICES][4096];
    for (int i = 0; i < count; i++) {
        snprintf(links[i], sizeof links[i], "%s/device-%d", argv[1], i);
        masters[i] = open_device(links[i]);
        if (masters[i] < 0) {
            perror("bench-fleet: pty");
            return 71;
        }
    }
    sigset_t handled, waiting;
    sigemptyset(&handled);
    sigaddset(&handled, SIGUSR1);
    sigaddset(&handled, SIGUSR2);
    sigaddset(&handled, SIGTERM);
    sigaddset(&handled, SIGINT);
    sigprocmask(SIG_BLOCK, &handled, &waiting); /* sigsuspend(&waiting) lets them in */
    struct sigaction action = {0};
    action.sa_handler = on_start_signal;
    sigaction(SIGUSR1, &action, NULL);
    action.sa_handler = on_end_signal;
    sigaction(SIGUSR2, &action, NULL);
    action.sa_handler = on_stop_signal;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    printf("ready\n");
    fflush(stdout);

    while (!streaming && !stopping) sigsuspend(&waiting);
    sigprocmask(SIG_SETMASK, &waiting, NULL);
    unsigned long sequence = 0;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    long period_ns = 1000000000L / rate;
    while (!ending && !stopping) {
        char line[LINE_LENGTH + 1];
        snprintf(line, 11, "%010lu", sequence++);
        memcpy(line + 10, line_tail, LINE_LENGTH - 10);
        for (int i = 0; i < count; i++) {
            if (write_all(masters[i], line, LINE_LENGTH) != 0) return 74;
        }
        next.tv_nsec += period_ns;
        while (next.tv_nsec >= 1000000000L) {
            next.tv_nsec -= 1000000000L;
            next.tv_sec += 1;
        }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR && !ending && !stopping) {}
    }
    char trailer[32];
    int length = snprintf(trailer, sizeof trailer, "END %lu\n", sequence);
    for (int i = 0; i < count; i++) write_all(masters[i], trailer, (size_t)length);
    sigprocmask(SIG_BLOCK, &handled, NULL);
    while (!stopping) sigsuspend(&waiting);
    for (int i = 0; i < count; i++) unlink(links[i]);
    return 0;
}
