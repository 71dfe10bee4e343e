/* The Valgrind client requests the constant-time check needs, from
 * Valgrind's own header (valgrind/memcheck.h of the Debian `valgrind`
 * package). Each request is a magic instruction sequence that does nothing
 * on a real CPU and talks to memcheck under Valgrind, so the harness runs
 * natively as well (the counts are then 0). */
#include <stddef.h>
#include <valgrind/memcheck.h>

/* 1 when running under Valgrind, else 0. */
int mbct_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }

/* Memcheck: mark `len` bytes at `p` as undefined (secret). */
void mbct_make_undefined(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len); }

/* Memcheck: mark `len` bytes at `p` as defined again (declassified). */
void mbct_make_defined(const void *p, size_t len) { (void)VALGRIND_MAKE_MEM_DEFINED(p, len); }

/* Memcheck: copy the definedness bits of `len` bytes at `p` into `vbits`
 * (a set bit = undefined) without reporting anything. Returns 1 on success,
 * 0 outside Valgrind. */
int mbct_get_vbits(const void *p, void *vbits, size_t len) {
    return VALGRIND_GET_VBITS(p, vbits, len) == 1 ? 1 : 0;
}

/* Errors Valgrind has reported so far (not counting suppressed ones). */
unsigned mbct_count_errors(void) { return (unsigned)VALGRIND_COUNT_ERRORS; }
