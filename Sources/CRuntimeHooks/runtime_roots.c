/*
 * runtime_roots: at exit, keep an untagged copy of every tagged pointer in
 * this library's zero-initialised data (.bss), so that leak checkers report
 * the Swift runtime's process-lifetime tables as what they are: reachable.
 *
 * Why. libpathconfig.so links the Swift runtime statically, so the runtime's
 * lock-free hash tables (swift::ConcurrentReadableHashMap) live in this
 * library's .bss: the generic metadata cache of each generic type (Array,
 * Dictionary, Optional, ... in the type descriptor's instantiation cache,
 * symbols "$sSaMI" and the like), the protocol conformance cache, the tuple
 * type cache. Once a table outgrows the sixteen 4-bit slots of its inline
 * index word (at its 12th entry), it keeps its index array in a calloc'd block
 * and the only reference to that block in that word, tagged in its low two
 * bits: IndexStorage::Value = pointer | IndexMode (1, 2 or 3 for 8, 16 or
 * 32-bit indices; swift's include/swift/Runtime/Concurrent.h). Valgrind's
 * memcheck counts only a pointer to a block's first byte as a start pointer:
 * it finds one 1 to 3 bytes inside and reports the block "possibly lost" (32
 * to 128 bytes each, about 200 in all after one lookup), an error under
 * --leak-check=full that no host can avoid.
 *
 * What. A destructor of this library, run after its other destructors, copies
 * each word of the library's .bss whose low three bits are 1, 2 or 3 (a tag
 * on an 8-byte aligned address), with the tag cleared, into a table of its
 * own, also in .bss. A leak checker scans that table as a root, so the index
 * arrays are reported "still reachable", with the stack that allocated them,
 * under --show-leak-kinds=reachable. Nothing is freed, allocated, suppressed
 * or hidden: a block the runtime (or anyone) really lost is reported as before,
 * and a copied word that is not a pointer points at nothing. The library never
 * reads the table (volatile keeps the compiler from dropping the stores). The
 * scan reads the .bss once (about 300 KB), at exit.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_DEFINED(address, length) ((void)0)
#endif

/* Room for every tagged-looking word of the .bss: about 120 after a long
 * host, the tables a few dozen of them. A word past the end is not copied,
 * and its block, if any, is reported as without this file. */
#define RUNTIME_ROOTS_CAPACITY 1024

static void *volatile runtime_roots[RUNTIME_ROOTS_CAPACITY];

/* dl_iterate_phdr's callback: for the object whose writable segment holds
 * runtime_roots (this library), copy the tagged words of its .bss, the part
 * of that segment the file does not back. Not instrumented by sanitizers:
 * it reads the whole .bss, between and around other globals. */
__attribute__((no_sanitize("address", "thread")))
static int keep_tagged_words(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void)size;
    (void)unused;
    uintptr_t self = (uintptr_t)runtime_roots;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        uintptr_t end = start + segment->p_memsz;
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_W) || self < start || self >= end)
            continue;
        uintptr_t bss = (start + segment->p_filesz + 7) & ~(uintptr_t)7;
        size_t kept = 0;
        for (const uintptr_t *word = (const uintptr_t *)bss; (uintptr_t)word < (end & ~(uintptr_t)7); word++) {
            /* Relaxed: a thread still running at exit may be writing it. */
            uintptr_t value = __atomic_load_n(word, __ATOMIC_RELAXED);
            /* The scan reads padding between globals too (a Swift struct's
             * bytes copied from the heap, never written): under valgrind
             * the copy is marked defined, as a garbage collector's scan is;
             * a no-op elsewhere. */
            VALGRIND_MAKE_MEM_DEFINED(&value, sizeof value);
            if ((value & 7) - 1 < 3 && value >= 4096) {
                runtime_roots[kept++] = (void *)(value & ~(uintptr_t)3);
                if (kept == RUNTIME_ROOTS_CAPACITY)
                    break;
            }
        }
        return 1; /* this library: stop */
    }
    return 0; /* another object: go on */
}

/* Priority 101, the first: destructors run in reverse order of priority, so
 * this one runs after this library's others. */
__attribute__((destructor(101)))
static void runtime_roots_at_exit(void)
{
    dl_iterate_phdr(keep_tagged_words, NULL);
}
#endif
