/*
 * runtime_roots: no declarations. The target is linked into libpathconfig.so
 * for its exit-time destructor alone; runtime_roots.c says what it does and why.
 * (SwiftPM wants a public header directory for a C target.)
 */
#ifndef RUNTIME_ROOTS_H
#define RUNTIME_ROOTS_H
#endif
