// See include/signal_record.h. Written in C because a signal handler may only call
// async-signal-safe functions and touch `volatile sig_atomic_t` state, which Swift
// code cannot promise.
#define _GNU_SOURCE
#include "signal_record.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int relay = -1;
static volatile sig_atomic_t first;

static void on_signal(int signo) {
    int saved = errno;
    if (!first) first = signo;
    unsigned char number = (unsigned char)signo;
    // The pipe holds 64 KiB of signal numbers; one more than that is dropped, not waited for.
    (void)write(relay, &number, 1);
    errno = saved;
}

int tether_signal_record_open(void) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    int flags = fcntl(ends[1], F_GETFL);
    if (flags < 0 || fcntl(ends[1], F_SETFL, flags | O_NONBLOCK) != 0) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        errno = saved;
        return -1;
    }
    relay = ends[1];
    return ends[0];
}

void tether_signal_record_install(int signo) {
    if (relay < 0 || signo <= 0 || signo >= NSIG) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(signo, &action, NULL);
}

int tether_signal_record_first(void) { return first; }
