#ifndef TETHER_CTERMINFO_SHIM_H
#define TETHER_CTERMINFO_SHIM_H
// The terminfo database through ncurses' low-level library, libtinfo, from Debian's
// libncurses-dev: the escape sequences of the user's terminal
// ($TERM) for the live dashboard, never hard-coded ones.
//
// `tiparm` is variadic, which Swift cannot call; it is wrapped here with a fixed
// number of parameters (terminfo(5), "Parameterized Strings").
#include <curses.h>
#include <term.h>

/// Loads the terminfo entry `term` into the current terminal; 1 on success, 0 when the
/// entry is missing or the database cannot be read. Not thread-safe (terminfo's
/// current terminal is global): callers serialise.
static inline int tether_terminfo_load(const char *term) {
    int status = 0;
    return setupterm(term, -1, &status) == OK && status == 1;
}

/// The string capability `name` (e.g. "smcup"), or NULL when the terminal lacks it.
static inline const char *tether_terminfo_string(const char *name) {
    char *value = tigetstr(name);
    return value == (char *)-1 ? NULL : value;
}

/// The numeric capability `name` (e.g. "colors"), or -1 when absent.
static inline int tether_terminfo_number(const char *name) {
    int value = tigetnum(name);
    return value < 0 ? -1 : value;
}

/// The capability string `format` with one parameter filled in (e.g. "setaf", 2).
static inline const char *tether_terminfo_format1(const char *format, long parameter) {
    return tiparm(format, parameter);
}

/// Frees the loaded entry.
static inline void tether_terminfo_release(void) {
    TERMINAL *loaded = set_curterm(NULL);
    if (loaded != NULL) del_curterm(loaded);
}
#endif
