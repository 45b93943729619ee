#ifndef TETHER_CLUA_SHIM_H
#define TETHER_CLUA_SHIM_H
// Lua 5.4 from Debian's liblua5.4-dev (`pkg-config lua5.4`).
//
// Function-like macros of the Lua API do not import into Swift; each one tether uses
// is wrapped here as a static inline function with the same meaning (Lua 5.4
// reference manual, §4 and §5).
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

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

#endif
