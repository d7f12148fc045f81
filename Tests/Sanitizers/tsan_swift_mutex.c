/* ThreadSanitizer annotations for Swift's Synchronization.Mutex on Linux.
 *
 * Linked into the C tests of `make test-sanitize`'s ThreadSanitizer run (and
 * preloaded into the Swift tests' runner there); never into the library.
 *
 * Why. The library guards its shared state with Synchronization.Mutex. On
 * Linux its fast paths are atomics inlined into the library's own code, which
 * ThreadSanitizer instruments; but a contended lock is handed over by the slow
 * paths in libswiftSynchronization.so: a spin on plain atomics, then the
 * kernel (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI), where the owner changes without
 * any user-space store. That library is not instrumented, so ThreadSanitizer
 * sees two threads take the same lock with nothing ordering them and reports
 * every access made under it as a data race.
 *
 * What. This file defines the three slow-path functions under their Swift
 * names, so that the library's calls (through the PLT, since the sanitized
 * library links the Swift runtime dynamically) land here first. Each one
 * calls the real function and tells ThreadSanitizer what happened to the
 * lock word, exactly as the instrumented fast paths do: a release before
 * _unlockSlow, an acquire after _lockSlow and after a _tryLockSlow that took
 * the lock. Nothing is suppressed: a race on memory that no Mutex orders is
 * still reported.
 *
 * How. Swift passes `self` (here the address of the lock word) in r13 and the
 * calling thread's id in edi, which C cannot express, so each wrapper is a few
 * lines of x86-64 assembly around a C helper that finds the real function
 * (dlsym RTLD_NEXT, once). If the names ever change with the toolchain, the
 * library's calls would pass the wrappers by and the reports come back
 * unexplained; so, in a program ThreadSanitizer runs, every name is looked up
 * before main and a missing one stops the program with a message. */
#if !defined(__x86_64__) || !defined(__linux__)
#error "tsan_swift_mutex.c: x86-64 Linux only (the wrappers are written in its assembly)"
#endif

#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Weak: preloaded into `swift test`, this file is also in processes without
 * ThreadSanitizer (the swift command itself), where it only forwards. */
void __tsan_acquire(void *addr) __attribute__((weak));
void __tsan_release(void *addr) __attribute__((weak));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"

static const char *const names[3] = { LOCK_SLOW, UNLOCK_SLOW, TRY_LOCK_SLOW };
static void *targets[3]; /* read and written with __atomic builtins */

/* The real function `which` (0: lock, 1: unlock, 2: try-lock). Called from the
 * wrappers below; a race between two first calls only looks it up twice. */
void *tsan_swift_mutex_target(int which);
void *tsan_swift_mutex_target(int which)
{
    void *target = __atomic_load_n(&targets[which], __ATOMIC_ACQUIRE);
    if (target == NULL) {
        target = dlsym(RTLD_NEXT, names[which]);
        if (target == NULL) {
            fprintf(stderr, "tsan_swift_mutex: %s not found after this program (%s): the Swift toolchain's "
                            "Mutex changed; update Tests/Sanitizers/tsan_swift_mutex.c\n", names[which], dlerror());
            abort();
        }
        __atomic_store_n(&targets[which], target, __ATOMIC_RELEASE);
    }
    return target;
}

/* Before main, under ThreadSanitizer: all three names exist. */
__attribute__((constructor)) static void check_names(void)
{
    int which;
    if (__tsan_acquire == NULL) return;
    for (which = 0; which < 3; which++) (void)tsan_swift_mutex_target(which);
}

/* What the wrappers tell ThreadSanitizer about the lock word `word`. */
void tsan_swift_mutex_acquired(void *word);
void tsan_swift_mutex_acquired(void *word)
{
    if (__tsan_acquire != NULL) __tsan_acquire(word);
}

void tsan_swift_mutex_releasing(void *word);
void tsan_swift_mutex_releasing(void *word)
{
    if (__tsan_release != NULL) __tsan_release(word);
}

/* On entry the stack is 8 bytes off 16; each wrapper pushes r13 (the lock
 * word's address, kept for after the call) to align it, and the C calls in
 * between leave r13 alone (callee-saved) but may clobber edi, which _lockSlow
 * needs, so it is saved around the lookup. */
__asm__(
    "    .text\n"
    "    .globl \"" LOCK_SLOW "\"\n"
    "    .type \"" LOCK_SLOW "\", @function\n"
    "\"" LOCK_SLOW "\":\n"
    "    push %r13\n"
    "    push %rdi\n"
    "    sub $8, %rsp\n"
    "    xor %edi, %edi\n"
    "    call tsan_swift_mutex_target\n"
    "    add $8, %rsp\n"
    "    pop %rdi\n"
    "    mov (%rsp), %r13\n"
    "    call *%rax\n"                 /* the real _lockSlow(selfId) on self */
    "    mov (%rsp), %rdi\n"
    "    call tsan_swift_mutex_acquired\n" /* the lock word, as the fast path's acquiring CAS does */
    "    pop %r13\n"
    "    ret\n"
    "    .size \"" LOCK_SLOW "\", . - \"" LOCK_SLOW "\"\n"

    "    .globl \"" UNLOCK_SLOW "\"\n"
    "    .type \"" UNLOCK_SLOW "\", @function\n"
    "\"" UNLOCK_SLOW "\":\n"
    "    push %r13\n"
    "    mov %r13, %rdi\n"
    "    call tsan_swift_mutex_releasing\n" /* before the kernel hands the lock over */
    "    mov $1, %edi\n"
    "    call tsan_swift_mutex_target\n"
    "    mov (%rsp), %r13\n"
    "    call *%rax\n"                 /* the real _unlockSlow() on self */
    "    pop %r13\n"
    "    ret\n"
    "    .size \"" UNLOCK_SLOW "\", . - \"" UNLOCK_SLOW "\"\n"

    "    .globl \"" TRY_LOCK_SLOW "\"\n"
    "    .type \"" TRY_LOCK_SLOW "\", @function\n"
    "\"" TRY_LOCK_SLOW "\":\n"
    "    push %r13\n"
    "    mov $2, %edi\n"
    "    call tsan_swift_mutex_target\n"
    "    mov (%rsp), %r13\n"
    "    call *%rax\n"                 /* the real _tryLockSlow() on self: Bool in al */
    "    test %al, %al\n"
    "    jz 1f\n"
    "    push %rax\n"
    "    sub $8, %rsp\n"
    "    mov 16(%rsp), %rdi\n"
    "    call tsan_swift_mutex_acquired\n" /* only when it took the lock */
    "    add $8, %rsp\n"
    "    pop %rax\n"
    "1:  pop %r13\n"
    "    ret\n"
    "    .size \"" TRY_LOCK_SLOW "\", . - \"" TRY_LOCK_SLOW "\"\n");
