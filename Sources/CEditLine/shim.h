#ifndef TETHER_CEDITLINE_SHIM_H
#define TETHER_CEDITLINE_SHIM_H
// libedit (BSD editline) from Debian's libedit-dev (its header is /usr/include/histedit.h).
//
// `el_set`, `el_get` and `history` are variadic, which Swift cannot call; each use
// tether makes of them is wrapped here as a static inline function (editline(3)).
#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

/// `el_init` reading the terminal settings of `in`, drawing on `out`, with errors on
/// standard error (which Swift 6 cannot name safely).
static inline EditLine *tether_el_init_files(const char *program, FILE *in, FILE *out) {
    return el_init(program, in, out, stderr);
}

/// The prompt of tether's line mode.
static inline char *tether_prompt(EditLine *el) {
    (void)el;
    return (char *)"> ";
}

/// `el_set(el, EL_EDITOR, "emacs")`: emacs key bindings.
static inline int tether_el_set_emacs(EditLine *el) { return el_set(el, EL_EDITOR, "emacs"); }

/// `el_set(el, EL_BIND, "^R", "em-inc-search-prev", NULL)`: Ctrl-R searches the
/// history backwards as readline does (libedit's emacs map redraws on Ctrl-R).
static inline int tether_el_bind_history_search(EditLine *el) {
    return el_set(el, EL_BIND, "^R", "em-inc-search-prev", NULL);
}

/// `el_set(el, EL_PROMPT, tether_prompt)`: the prompt `> `.
static inline int tether_el_set_prompt(EditLine *el) { return el_set(el, EL_PROMPT, tether_prompt); }

/// `el_set(el, EL_GETCFN, read)`: the function reading one character.
static inline int tether_el_set_getc(EditLine *el, int (*read)(EditLine *, wchar_t *)) {
    return el_set(el, EL_GETCFN, read);
}

/// `el_set(el, EL_CLIENTDATA, data)`.
static inline int tether_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }

/// `el_get(el, EL_CLIENTDATA, &data)`.
static inline void *tether_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

/// `el_set(el, EL_HIST, history, h)`: the history list Up and Down walk.
static inline int tether_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }

/// `el_set(el, EL_REFRESH)`: redraws the prompt and the line being edited.
static inline int tether_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }

/// `history(h, &ev, H_SETSIZE, size)`: keep at most `size` entries.
static inline int tether_history_setsize(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}

/// `history(h, &ev, H_SETUNIQUE, 1)`: do not store a line equal to the previous one.
static inline int tether_history_setunique(History *h) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, 1);
}

/// `history(h, &ev, H_ENTER, line)`: adds a line.
static inline int tether_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}

/// `history(h, &ev, H_LOAD, path)`: reads a history file.
static inline int tether_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}

/// `history(h, &ev, H_SAVE, path)`: writes the history file.
static inline int tether_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}

#endif
