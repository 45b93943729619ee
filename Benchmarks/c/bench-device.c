/*
 * bench-device: the pseudo-terminal device that scripts/bench measures clients
 * against (see docs/PERFORMANCE.md).
 *
 * Usage: bench-device LINK [STREAM_MS]
 *
 * Opens a pty, makes its slave raw, points the symlink LINK at the slave, prints the
 * slave's path on stdout and serves until SIGTERM (or SIGINT):
 *   - "MEAS:VOLT?"  -> the 16-byte line "+1.23456789E+00\n"
 *   - "STREAM ms"   -> 40-byte lines: a 10-digit sequence number from 0, then a fixed
 *                      30-byte tail ending in LF, written in 100-line chunks as fast as the pty
 *                      accepts them for `ms` milliseconds, then "END n\n" (n = lines)
 *   - anything else -> "ERR\n"
 * SIGUSR1 starts a stream of STREAM_MS milliseconds without a command (for clients
 * that only listen, such as `tether monitor`).
 *
 * The device keeps its own slave descriptor open, so clients may open and close the
 * port many times (one-shot start-up runs) without hanging it up.
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

enum { LINE_LENGTH = 40, CHUNK_LINES = 100 };

static const char voltage_reply[] = "+1.23456789E+00\n";
static const char line_tail[] = " the quick brown fox jumps...\n"; /* 30 bytes */

static volatile sig_atomic_t stream_requested;

static void on_stream_signal(int signal_number) { (void)signal_number; stream_requested = 1; }

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void stream(int master, long milliseconds) {
    static char chunk[CHUNK_LINES * LINE_LENGTH];
    unsigned long sequence = 0;
    double end = now_seconds() + (double)milliseconds / 1000.0;
    do {
        for (int i = 0; i < CHUNK_LINES; i++) {
            char *line = chunk + i * LINE_LENGTH;
            snprintf(line, 11, "%010lu", sequence++);
            memcpy(line + 10, line_tail, LINE_LENGTH - 10);
        }
        if (write_all(master, chunk, sizeof chunk) != 0) return;
    } while (now_seconds() < end && !stopping);
    char trailer[32];
    int length = snprintf(trailer, sizeof trailer, "END %lu\n", sequence);
    write_all(master, trailer, (size_t)length);
}

static void answer(int master, const char *command) {
    if (strcmp(command, "MEAS:VOLT?") == 0) {
        write_all(master, voltage_reply, sizeof voltage_reply - 1);
    } else if (strncmp(command, "STREAM ", 7) == 0) {
        stream(master, atol(command + 7));
    } else {
        write_all(master, "ERR\n", 4);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench-device LINK [STREAM_MS]\n");
        return 64;
    }
    long signal_stream_ms = argc > 2 ? atol(argv[2]) : 1000;
    int master = open_device(argv[1]);
    if (master < 0) {
        perror("bench-device: pty");
        return 71;
    }
    const char *slave_path = ptsname(master);

    struct sigaction action = {0};
    action.sa_handler = on_stream_signal; /* no SA_RESTART: read() returns EINTR */
    sigaction(SIGUSR1, &action, NULL);
    action.sa_handler = on_stop_signal;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    printf("%s\n", slave_path);
    fflush(stdout);

    char pending[4096];
    size_t used = 0;
    while (!stopping) {
        if (stream_requested) {
            stream_requested = 0;
            stream(master, signal_stream_ms);
            continue;
        }
        ssize_t count = read(master, pending + used, sizeof pending - used);
        if (count < 0) {
            if (errno == EINTR) continue;
            break;
        }
        used += (size_t)count;
        size_t start = 0;
        for (size_t i = 0; i < used; i++) {
            if (pending[i] != '\n' && pending[i] != '\r') continue;
            pending[i] = '\0';
            if (i > start) answer(master, pending + start);
            start = i + 1;
        }
        memmove(pending, pending + start, used - start);
        used -= start;
        if (used == sizeof pending) used = 0; /* an overlong line: dropped */
    }
    unlink(argv[1]);
    close(master);
    return 0;
}
