#ifndef TETHER_CLUA_SHIM_H
#define TETHER_CLUA_SHIM_H
// Lua 5.4 from Debian's liblua5.4-dev (its headers are in /usr/include/lua5.4).
//
// Function-like macros of the Lua API do not import into Swift; each one tether uses
// is wrapped here as a static inline function with the same meaning (Lua 5.4
// reference manual, §4 and §5).
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>

/// `lua_pcall`: calls a function in protected mode.
static inline int tether_lua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}

/// `lua_tostring`: the string at `index` (numbers are converted in place), or NULL.
static inline const char *tether_lua_tostring(lua_State *L, int index) {
    return lua_tolstring(L, index, NULL);
}

/// `lua_pop`: pops `n` values.
static inline void tether_lua_pop(lua_State *L, int n) { lua_pop(L, n); }

/// `lua_newtable`: pushes a new empty table.
static inline void tether_lua_newtable(lua_State *L) { lua_newtable(L); }

/// `lua_upvalueindex`: the pseudo-index of a C closure's upvalue `i` (from 1).
static inline int tether_lua_upvalueindex(int i) { return lua_upvalueindex(i); }

/// `lua_tonumber`: the number at `index`, or 0.
static inline lua_Number tether_lua_tonumber(lua_State *L, int index) {
    return lua_tonumberx(L, index, NULL);
}

/// `lua_tointeger`: the integer at `index`, or 0.
static inline lua_Integer tether_lua_tointeger(lua_State *L, int index) {
    return lua_tointegerx(L, index, NULL);
}

/// `lua_isnoneornil`: whether `index` is not valid or holds nil.
static inline int tether_lua_isnoneornil(lua_State *L, int index) { return lua_type(L, index) <= 0; }

/// `luaL_loadbuffer` with an explicit mode (`"t"`: text chunks only).
static inline int tether_luaL_loadbuffer(lua_State *L, const char *buffer, size_t size, const char *name) {
    return luaL_loadbufferx(L, buffer, size, name, "t");
}

#include <stdlib.h>
#include <string.h>

/// A memory budget for one Lua state (see `tether_lua_newstate`): bytes in use, the
/// limit, and where the script was when an allocation was first refused.
typedef struct {
    size_t used;
    size_t limit;
    /// The state, set once created, so a refusal can record the script's position.
    lua_State *state;
    /// Whether an allocation was refused; `source` and `line` say where the last one
    /// was (line 0 when no Lua function was running).
    int refused;
    char source[LUA_IDSIZE];
    int line;
} tether_lua_budget;

/// Records the innermost Lua function's chunk and current line (`lua_getstack` and
/// `lua_getinfo` with "Sl", which allocate nothing).
static inline void tether_lua_budget_note_position(tether_lua_budget *budget) {
    budget->line = 0;
    budget->source[0] = 0;
    if (budget->state == NULL) return;
    lua_Debug ar;
    for (int level = 0; lua_getstack(budget->state, level, &ar); level++) {
        if (!lua_getinfo(budget->state, "Sl", &ar) || ar.currentline <= 0) continue;
        budget->line = ar.currentline;
        strncpy(budget->source, ar.short_src, sizeof budget->source - 1);
        budget->source[sizeof budget->source - 1] = 0;
        return;
    }
}

/// A `lua_Alloc` that refuses to grow past `budget->limit` bytes in use (Lua then
/// raises its "not enough memory" error, after one emergency collection). Lua 5.4
/// reference manual §4.6: `ptr` NULL means a new block and `osize` is then a type tag.
static inline void *tether_lua_allocate(void *userData, void *block, size_t oldSize, size_t newSize) {
    tether_lua_budget *budget = (tether_lua_budget *)userData;
    size_t old = block == NULL ? 0 : oldSize;
    if (newSize == 0) {
        free(block);
        budget->used -= old;
        return NULL;
    }
    if (newSize > old && newSize - old > budget->limit - budget->used) {
        tether_lua_budget_note_position(budget);
        budget->refused = 1;
        return NULL;
    }
    void *grown = realloc(block, newSize);
    if (grown == NULL) return NULL;
    budget->used = budget->used - old + newSize;
    return grown;
}

/// `lua_newstate` with `tether_lua_allocate` over `budget`, which must outlive the state.
static inline lua_State *tether_lua_newstate(tether_lua_budget *budget) {
    lua_State *state = lua_newstate(tether_lua_allocate, budget);
    budget->state = state;
    return state;
}

#endif
