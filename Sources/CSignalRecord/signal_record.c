// See include/signal_record.h. Written in C because a signal handler may only call
// async-signal-safe functions and touch `volatile sig_atomic_t` state, which Swift
// code cannot promise.
#include "signal_record.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static struct sigaction previous[NSIG];
static volatile sig_atomic_t first;

static void on_signal(int signo, siginfo_t *info, void *context) {
    if (!first) first = signo;
    if (signo <= 0 || signo >= NSIG) return;
    struct sigaction *before = &previous[signo];
    if (before->sa_flags & SA_SIGINFO) {
        before->sa_sigaction(signo, info, context);
    } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN) {
        before->sa_handler(signo);
    }
}

void tether_signal_record_install(int signo) {
    if (signo <= 0 || signo >= NSIG) return;
    struct sigaction current;
    if (sigaction(signo, NULL, &current) != 0 || current.sa_sigaction == on_signal) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_signal;
    action.sa_mask = current.sa_mask;
    action.sa_flags = SA_SIGINFO | (current.sa_flags & (SA_RESTART | SA_ONSTACK | SA_NODEFER));
    previous[signo] = current;
    sigaction(signo, &action, NULL);
}

int tether_signal_record_first(void) { return first; }
