/*
 * runtime_hooks: no declarations. The target is linked into libpathconfig.so
 * for the hooks it registers with the C library for the Swift runtime it
 * carries: an exit-time destructor (runtime_roots.c) and a fork handler
 * (fork_thread_id.c); each file says what it does and why. (SwiftPM wants a
 * public header directory for a C target.)
 */
#ifndef RUNTIME_HOOKS_H
#define RUNTIME_HOOKS_H
#endif
