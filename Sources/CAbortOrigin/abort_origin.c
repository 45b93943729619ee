// See include/abort_origin.h. Written in C because a signal handler may only call
// async-signal-safe functions and touch `volatile sig_atomic_t` state, which Swift
// code cannot promise (it may allocate, lock or run lazy global initialisers).
#include "abort_origin.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static struct sigaction previous;
static volatile sig_atomic_t forwarding;

static void on_abort(int signo, siginfo_t *info, void *context) {
    int saved = errno;
    int isFromOutside = info != NULL && (info->si_code == SI_USER || info->si_code == SI_TKILL)
        && info->si_pid != getpid();
    if (isFromOutside) {
        if (forwarding) {
            kill(getpid(), SIGRTMIN);
        } else {
            signal(SIGABRT, SIG_DFL);
            raise(SIGABRT);
        }
        errno = saved;
        return;
    }
    errno = saved;
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(signo, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signo);
    } else {
        sigaction(SIGABRT, &previous, NULL);
        raise(SIGABRT);
    }
}

void tether_abort_origin_install(void) {
    struct sigaction current;
    if (sigaction(SIGABRT, NULL, &current) != 0 || current.sa_handler == SIG_IGN) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_abort;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | (current.sa_flags & SA_NODEFER);
    sigaction(SIGABRT, &action, &previous);
}

int tether_abort_origin_stand_in(void) { return SIGRTMIN; }

void tether_abort_origin_forward(void) { forwarding = 1; }
