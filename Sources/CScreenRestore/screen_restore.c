// See include/screen_restore.h. Written in C because a signal handler may only call
// async-signal-safe functions and touch `volatile sig_atomic_t` state, which Swift
// code cannot promise (it may allocate, lock or run lazy global initialisers).
#include "screen_restore.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static const int handled[] = {
    SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS, SIGUSR1, SIGUSR2,
    SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT, SIGPIPE,
};
enum { handledCount = sizeof handled / sizeof handled[0], capacity = 512 };

static char restoreBytes[capacity];
static volatile sig_atomic_t restoreLength;
static volatile sig_atomic_t restoreFD = -1;
static struct termios restoreSettings;
static volatile sig_atomic_t restoreSettingsFD = -1;
static struct sigaction previous[handledCount];
static int installed[handledCount];
static pthread_mutex_t arming = PTHREAD_MUTEX_INITIALIZER;

static void restore_and_reraise(int signo) {
    int saved = errno;
    sig_atomic_t settingsFD = restoreSettingsFD;
    restoreSettingsFD = -1;
    if (settingsFD >= 0) tcsetattr(settingsFD, TCSANOW, &restoreSettings);
    sig_atomic_t length = restoreLength;
    restoreLength = 0;  // once, even if the write below faults again
    if (length > 0 && restoreFD >= 0) {
        const char *cursor = restoreBytes;
        while (length > 0) {
            ssize_t written = write(restoreFD, cursor, (size_t)length);
            if (written <= 0) break;
            cursor += written;
            length -= (sig_atomic_t)written;
        }
    }
    for (int index = 0; index < handledCount; index++) {
        if (handled[index] == signo && installed[index]) sigaction(signo, &previous[index], NULL);
    }
    errno = saved;
    raise(signo);
}

// Installs the handler on each signal not ignored and not handled yet (under `arming`).
static void install(void) {
    for (int index = 0; index < handledCount; index++) {
        if (installed[index]) continue;
        struct sigaction current;
        if (sigaction(handled[index], NULL, &current) != 0 || current.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = restore_and_reraise;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_ONSTACK | SA_NODEFER;
        if (sigaction(handled[index], &action, &previous[index]) == 0) installed[index] = 1;
    }
}

int tether_screen_restore_arm(int fd, const char *bytes, size_t length) {
    if (length > capacity) return -1;
    pthread_mutex_lock(&arming);
    restoreLength = 0;
    memcpy(restoreBytes, bytes, length);
    restoreFD = fd;
    restoreLength = (sig_atomic_t)length;
    install();
    pthread_mutex_unlock(&arming);
    return 0;
}

int tether_screen_restore_arm_settings(int fd, const void *settings, size_t length) {
    if (length != sizeof restoreSettings) return -1;
    pthread_mutex_lock(&arming);
    restoreSettingsFD = -1;
    memcpy(&restoreSettings, settings, length);
    restoreSettingsFD = fd;
    install();
    pthread_mutex_unlock(&arming);
    return 0;
}

void tether_screen_restore_disarm(void) {
    pthread_mutex_lock(&arming);
    restoreLength = 0;
    restoreSettingsFD = -1;
    for (int index = 0; index < handledCount; index++) {
        if (installed[index]) sigaction(handled[index], &previous[index], NULL);
        installed[index] = 0;
    }
    pthread_mutex_unlock(&arming);
}
