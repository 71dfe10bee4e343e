/* A QEMU TCG plugin for the constant-time check of the aarch64 build
 * (scripts/ct-qemu.py): it records, for the guest thread inside a probe
 * region, every executed instruction's address and every memory access's
 * virtual address, in the event format of ct-trace on x86-64
 * (crates/multiblock-ct/src/trace/mod.rs): little-endian u64s, bit 63 set
 * on instruction addresses.
 *
 * The guest (`ct-emu run`) marks a region by calling
 * multiblock_ct_mark_enter() before and multiblock_ct_mark_leave() after
 * each library call; the plugin finds them by symbol name when it
 * translates their code.
 *
 * Arguments:
 *   out=PATH     a summary at exit: regions, steps (instructions recorded),
 *                the address of multiblock_ct_mark_enter (for symbols)
 *                and a 128-bit hash of
 *                the events (two runs agree if and only if their hashes do,
 *                barring a collision);
 *   events=PATH  also every event (only to find where two runs part: a
 *                bitsliced batch is tens of millions of events).
 */
#include "plugin_api.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The plugin API version this plugin was written against (QEMU 7.2). */
MBCT_EXPORT int qemu_plugin_version = 1;

#define INSN_TAG (UINT64_C(1) << 63)
#define MAX_VCPUS 256

static FILE *events_out;
static const char *summary_path;
static uint64_t hash_a = UINT64_C(0xcbf29ce484222325), hash_b = UINT64_C(0x9e3779b97f4a7c15);
static uint64_t steps, regions, enter_vaddr;
/* Which guest threads are inside a region (one, in practice: the traced
 * call's; worker threads the library may start are not recorded). */
static unsigned char active[MAX_VCPUS];

/* Two independent 64-bit mixes of the event stream (FNV-1a over words, and
 * a multiply-rotate); order-sensitive. */
static void record(uint64_t event) {
    hash_a = (hash_a ^ event) * UINT64_C(0x100000001b3);
    hash_b = (hash_b ^ (event * UINT64_C(0xff51afd7ed558ccd)));
    hash_b = ((hash_b << 31) | (hash_b >> 33)) * UINT64_C(0xc4ceb9fe1a85ec53);
    if (events_out) fwrite(&event, sizeof event, 1, events_out);
}

static void on_enter(unsigned int vcpu, void *vaddr) {
    if (vcpu < MAX_VCPUS && !active[vcpu]) {
        active[vcpu] = 1;
        regions++;
        if (!enter_vaddr) enter_vaddr = (uint64_t)(uintptr_t)vaddr;
    }
}

static void on_leave(unsigned int vcpu, void *vaddr) {
    (void)vaddr;
    if (vcpu < MAX_VCPUS) active[vcpu] = 0;
}

static void on_insn(unsigned int vcpu, void *vaddr) {
    if (vcpu >= MAX_VCPUS || !active[vcpu]) return;
    steps++;
    record((uint64_t)(uintptr_t)vaddr | INSN_TAG);
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata) {
    (void)info;
    (void)udata;
    if (vcpu < MAX_VCPUS && active[vcpu]) record(vaddr);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        void *vaddr = (void *)(uintptr_t)qemu_plugin_insn_vaddr(insn);
        const char *sym = qemu_plugin_insn_symbol(insn);
        /* The mark functions' own instructions count as inside the region
         * (callbacks run in registration order): the same in every run. */
        if (sym && strcmp(sym, "multiblock_ct_mark_enter") == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_enter, QEMU_PLUGIN_CB_NO_REGS, vaddr);
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS, vaddr);
        qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
        if (sym && strcmp(sym, "multiblock_ct_mark_leave") == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_leave, QEMU_PLUGIN_CB_NO_REGS, vaddr);
    }
}

static void on_guest_exit(qemu_plugin_id_t id, void *udata) {
    (void)id;
    (void)udata;
    if (events_out) fclose(events_out);
    FILE *summary = fopen(summary_path, "w");
    if (summary) {
        fprintf(summary, "regions %" PRIu64 "\nsteps %" PRIu64 "\nenter 0x%" PRIx64 "\nhash %016" PRIx64 "%016" PRIx64 "\n",
                regions, steps, enter_vaddr, hash_a, hash_b);
        fclose(summary);
    }
}

MBCT_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *qemu, int argc, char **argv) {
    (void)qemu;
    const char *events = NULL;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) summary_path = argv[i] + 4;
        else if (strncmp(argv[i], "events=", 7) == 0) events = argv[i] + 7;
        else {
            fprintf(stderr, "ct_trace_plugin: unknown argument %s (expected out=PATH, events=PATH)\n", argv[i]);
            return -1;
        }
    }
    if (!summary_path) {
        fprintf(stderr, "ct_trace_plugin: out=PATH is required\n");
        return -1;
    }
    if (events) {
        events_out = fopen(events, "wb");
        if (!events_out) {
            fprintf(stderr, "ct_trace_plugin: cannot open %s\n", events);
            return -1;
        }
        setvbuf(events_out, NULL, _IOFBF, 1 << 20);
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_guest_exit, NULL);
    return 0;
}
