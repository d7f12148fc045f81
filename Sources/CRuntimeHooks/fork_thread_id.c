/*
 * fork_thread_id: in a child of fork(), make the Swift runtime read the
 * forking thread's id again.
 *
 * Why. The runtime's one-time initialisation of a global (swift_once, each
 * global's first use) takes a lock of its own on Linux: a priority-
 * inheritance futex holding the owner's thread id, which each thread reads
 * once and keeps in a thread-local variable, the one defined here
 * (swift::threading_impl::linux::ulock_get_tid()'s `tid`; swift's
 * include/swift/Threading/Impl/Linux/ulock.h). fork() copies that variable
 * into the child, where the thread that forked has another id. When that
 * thread then held such a lock, for the first use of a global in the child,
 * and another of the child's threads waited for it, the kernel refused the
 * unlock (not the owner), which the runtime retries forever: the child spun
 * at 100% of two cores (14 children in 40 that called several functions for
 * the first time from four threads at once).
 *
 * What. A fork handler sets the variable to 0 in the child, which makes the
 * runtime read the id again. The definition below is weak, as the
 * runtime's is (an inline function's static): with the runtime linked in
 * statically, as in libpathconfig.so, this object comes first, so both are
 * one variable; where the runtime is a library of its own (the Swift tests,
 * the ThreadSanitizer build), its variable is out of reach and this one is
 * never read.
 */
#if defined(__linux__)
#include <pthread.h>

__attribute__((weak)) __thread int _ZZN5swift14threading_impl5linux13ulock_get_tidEvE3tid;

static void forget_thread_id(void)
{
    _ZZN5swift14threading_impl5linux13ulock_get_tidEvE3tid = 0;
}

__attribute__((constructor)) static void register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, forget_thread_id);
}
#endif
