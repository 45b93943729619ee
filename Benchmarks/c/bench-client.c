/*
 * bench-client: the C reference clients of scripts/bench (see docs/PERFORMANCE.md).
 *
 * Built twice from this file: on the raw file descriptor (termios, poll, read: the
 * floor), and with -DUSE_LIBSERIALPORT through libserialport (linked with
 * Sources/CPtyCompat/pty_compat.c, whose ioctl lets libserialport 0.1.1 open a pty;
 * the port is named "/dev/../../.." + the absolute path of a symlink to the pty, so
 * libserialport's sysfs lookup lands on the link).
 *
 * Usage: bench-client rtt PORT N      N queries "MEAS:VOLT?", each reply checked
 *        bench-client stream PORT MS  "STREAM MS", every line's sequence number checked
 *        bench-client oneshot PORT    one query (process start-up runs)
 * Prints one JSON object: {"ok":…,"n":…,"p50_us":…,"mean_us":…} for rtt,
 * {"ok":…,"lines":…,"seconds":…} for stream.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifdef USE_LIBSERIALPORT
#include <libserialport.h>
#endif

static const char voltage_reply[] = "+1.23456789E+00";
enum { LINE_LENGTH = 40, BUFFER_SIZE = 65536 };

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    fprintf(stderr, "bench-client: %s\n", what);
    exit(1);
}

/* ---- transport: open, write all, read what is there (blocking for at least 1 byte) */

#ifdef USE_LIBSERIALPORT
static struct sp_port *port;

static void port_open(const char *path) {
    char name[4096];
    snprintf(name, sizeof name, "/dev/../../..%s", path);
    if (sp_get_port_by_name(name, &port) != SP_OK) fail("sp_get_port_by_name");
    if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) fail("sp_open");
    struct sp_port_config *config;
    sp_new_config(&config);
    sp_set_config_baudrate(config, 115200);
    sp_set_config_bits(config, 8);
    sp_set_config_parity(config, SP_PARITY_NONE);
    sp_set_config_stopbits(config, 1);
    sp_set_config_flowcontrol(config, SP_FLOWCONTROL_NONE);
    if (sp_set_config(port, config) != SP_OK) fail("sp_set_config");
    sp_free_config(config);
}

static void port_write(const char *bytes, size_t count) {
    if (sp_blocking_write(port, bytes, count, 5000) != (int)count) fail("sp_blocking_write");
}

static size_t port_read(char *buffer, size_t capacity) {
    int count = sp_blocking_read_next(port, buffer, capacity, 10000);
    if (count <= 0) fail("sp_blocking_read_next: nothing in 10 s");
    return (size_t)count;
}
#else
static int port_fd;

static void port_open(const char *path) {
    port_fd = open(path, O_RDWR | O_NOCTTY);
    if (port_fd < 0) fail("open");
    struct termios settings;
    if (tcgetattr(port_fd, &settings) != 0) fail("tcgetattr");
    cfmakeraw(&settings);
    cfsetspeed(&settings, B115200);
    if (tcsetattr(port_fd, TCSANOW, &settings) != 0) fail("tcsetattr");
}

static void port_write(const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(port_fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) fail("write");
        bytes += written;
        count -= (size_t)written;
    }
}

static size_t port_read(char *buffer, size_t capacity) {
    struct pollfd readable = {.fd = port_fd, .events = POLLIN};
    for (;;) {
        int ready = poll(&readable, 1, 10000);
        if (ready == 0) fail("poll: nothing in 10 s");
        if (ready < 0 && errno == EINTR) continue;
        ssize_t count = read(port_fd, buffer, capacity);
        if (count > 0) return (size_t)count;
        if (count < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        fail("read");
    }
}
#endif

/* ---- framing: hands out complete lines (without LF) from what port_read returned */

static char buffer[BUFFER_SIZE];
static size_t start, end;

static const char *next_line(size_t *length) {
    for (;;) {
        char *newline = memchr(buffer + start, '\n', end - start);
        if (newline) {
            const char *line = buffer + start;
            *length = (size_t)(newline - line);
            start = (size_t)(newline - buffer) + 1;
            return line;
        }
        memmove(buffer, buffer + start, end - start);
        end -= start;
        start = 0;
        if (end == sizeof buffer) fail("line longer than the buffer");
        end += port_read(buffer + end, sizeof buffer - end);
    }
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int query_once(void) {
    static const char query[] = "MEAS:VOLT?\n";
    port_write(query, sizeof query - 1);
    size_t length;
    const char *line = next_line(&length);
    return length == sizeof voltage_reply - 1 && memcmp(line, voltage_reply, length) == 0;
}

static void round_trips(long n) {
    double *latencies = calloc((size_t)n, sizeof *latencies);
    long good = 0;
    double total = 0;
    for (long i = 0; i < n; i++) {
        double sent = now_seconds();
        good += query_once();
        latencies[i] = now_seconds() - sent;
        total += latencies[i];
    }
    qsort(latencies, (size_t)n, sizeof *latencies, compare_doubles);
    printf("{\"ok\":%s,\"n\":%ld,\"good\":%ld,\"p50_us\":%.1f,\"mean_us\":%.1f}\n", good == n ? "true" : "false",
           n, good, latencies[n / 2] * 1e6, total / (double)n * 1e6);
    free(latencies);
}

static void stream(const char *milliseconds) {
    char command[64];
    int length = snprintf(command, sizeof command, "STREAM %s\n", milliseconds);
    double began = now_seconds();
    port_write(command, (size_t)length);
    unsigned long lines = 0, wrong = 0;
    for (;;) {
        size_t size;
        const char *line = next_line(&size);
        if (size >= 4 && memcmp(line, "END ", 4) == 0) {
            unsigned long announced = strtoul(line + 4, NULL, 10);
            double seconds = now_seconds() - began;
            int ok = wrong == 0 && announced == lines;
            printf("{\"ok\":%s,\"lines\":%lu,\"announced\":%lu,\"wrong\":%lu,\"seconds\":%.6f}\n",
                   ok ? "true" : "false", lines, announced, wrong, seconds);
            return;
        }
        if (size != LINE_LENGTH - 1 || strtoul(line, NULL, 10) != lines) wrong++;
        lines++;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) fail("usage: bench-client (rtt PORT N | stream PORT MS | oneshot PORT)");
    port_open(argv[2]);
    if (strcmp(argv[1], "rtt") == 0 && argc > 3) {
        round_trips(atol(argv[3]));
    } else if (strcmp(argv[1], "stream") == 0 && argc > 3) {
        stream(argv[3]);
    } else if (strcmp(argv[1], "oneshot") == 0) {
        if (!query_once()) fail("wrong reply");
    } else {
        fail("unknown mode");
    }
    return 0;
}
