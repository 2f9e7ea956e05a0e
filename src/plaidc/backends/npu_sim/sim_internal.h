/*
 * sim_internal.h — state and services shared by the simulator's translation units:
 * sim.c (memories, checks, hazards, flags, timing, DMA, Cube) and sim_vector.c (vector unit).
 */
#ifndef PLAIDC_NPU_SIM_INTERNAL_H
#define PLAIDC_NPU_SIM_INTERNAL_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "plaidc_npu.h"

/* The hazard checker tracks accesses per 32-byte granule (the DMA unit). A vector access that
 * covers part of a granule counts as touching all of it, which can only over-report a hazard
 * between two pipes that share a granule without synchronising — code that does not do that
 * is checked exactly. */
#define NPU_GRANULE 32u

/* One issued instruction, for naming the other party of a hazard. */
typedef struct npu_instr {
  plaidc_npu_site site;
  int pipe;
} npu_instr;

/* Per-memory shadow state for the hazard checker: for every granule, the id of the last
 * instruction that wrote it and, per pipe, the last instruction that read it since (0 = none). */
typedef struct npu_shadow {
  uint32_t *last_write;
  uint32_t *last_read; /* [granule * PLAIDC_NPIPES + pipe] */
  uint64_t granules;
} npu_shadow;

/* A synchronisation flag (src pipe, dst pipe, event): raised by set_flag, consumed by wait_flag. */
typedef struct npu_flag {
  int raised;
  uint64_t release;               /* src pipe clock when raised: all earlier src work is done */
  uint32_t known[PLAIDC_NPIPES];  /* src's vector clock when raised                          */
  plaidc_npu_site site;           /* the set_flag, for messages                             */
  uint64_t flow;                  /* the set_flag's id in the trace                         */
} npu_flag;

typedef struct npu_gm_buffer {
  uint64_t offset, bytes; /* slot in the GM arena, padded to the GM alignment */
  const char *name;
} npu_gm_buffer;

struct npu_cores;

typedef struct npu_sim {
  const plaidc_npu_machine *machine;
  struct npu_cores *cores; /* every core of the run (sync_all_cores switches between them) */
  uint8_t *mem[PLAIDC_NMEM];
  uint64_t size[PLAIDC_NMEM];
  npu_shadow shadow[PLAIDC_NMEM];
  /* Cross-core view of GM since the last sync_all_cores, shared by the cores: which core last
   * wrote each granule (-1: none) and which read it. */
  int32_t *gm_writer_core;
  uint64_t *gm_reader_cores;
  const npu_gm_buffer *gm_buffers;
  uint64_t n_gm_buffers;
  int64_t core;

  /* Instruction log: id i (from 1) is log[i]. */
  npu_instr *log;
  uint64_t log_len, log_cap;

  /* Happens-before as vector clocks: known[p][q] is the id of the last instruction of pipe q
   * known to have finished before pipe p's next instruction starts; last_id[q] is q's latest. */
  uint32_t known[PLAIDC_NPIPES][PLAIDC_NPIPES];
  uint32_t last_id[PLAIDC_NPIPES];
  npu_flag flags[PLAIDC_NPIPES][PLAIDC_NPIPES][PLAIDC_NEVENTS];

  /* Timing: each pipe's clock (when its last instruction finishes) and busy cycles. */
  uint64_t clock[PLAIDC_NPIPES];
  uint64_t busy[PLAIDC_NPIPES]; /* this core's */
  uint64_t mask_hi, mask_lo;

  plaidc_npu_report *report;
  plaidc_npu_error *error;
  plaidc_npu_trace *trace; /* NULL unless the host asked for the timeline */
  uint64_t *flows;         /* set_flags traced so far (by every core)      */
  jmp_buf on_error;
} npu_sim;

/* The simulator of the running kernel (the intrinsics reach it through this). */
npu_sim *npu_current(void);

/* Reports an illegal use of the hardware at `site` and abandons the run (longjmp). */
_Noreturn void npu_fail(npu_sim *s, plaidc_npu_site site, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Like npu_fail, with a note naming another instruction. */
_Noreturn void npu_fail_note(npu_sim *s, plaidc_npu_site site, const char *note, const char *fmt,
                             ...) __attribute__((format(printf, 4, 5)));

/* An address decoded into its memory and signed byte offset. */
typedef struct npu_addr {
  int mem;
  int64_t off;
} npu_addr;

const char *npu_mem_name(int mem);
const char *npu_pipe_name(int pipe);

/* Decodes `p` (operand `what` of the instruction at `site`) and requires it to lie in `want`;
 * `unit` says who accesses it, e.g. "the vector unit", for the illegal-path message. `extent` is
 * the operand's span in bytes, shown in the message. */
npu_addr npu_operand(npu_sim *s, plaidc_npu_site site, const char *what, const void *p, int want,
                     const char *unit, uint64_t extent);
/* Requires an operand's offset to be a multiple of its memory's alignment. */
void npu_check_align(npu_sim *s, plaidc_npu_site site, const char *what, npu_addr a,
                     uint64_t extent);
/* Requires 0 <= value <= max for an integer argument. */
void npu_check_range(npu_sim *s, plaidc_npu_site site, const char *what, int64_t value,
                     int64_t min, int64_t max);

/* Starts an instruction on `pipe`: logs it and returns its id. */
uint32_t npu_issue(npu_sim *s, plaidc_npu_site site, int pipe);
/* Checks that [off, off+len) of `mem` is inside the memory (and, for GM, inside one argument),
 * checks it against other pipes' unordered accesses, records the access, and returns the host
 * pointer to the bytes. */
uint8_t *npu_access(npu_sim *s, uint32_t id, const char *what, int mem, int64_t off, uint64_t len,
                    int is_write);
/* Finishes an instruction on `pipe` that costs `cycles`. */
void npu_retire(npu_sim *s, int pipe, uint64_t cycles);

/* Appends one record to the timeline (sim_trace.c); call only when s->trace is set. */
void npu_trace(npu_sim *s, int kind, int pipe, uint64_t start, uint64_t cycles, uint64_t flow,
               uint64_t peer, uint64_t event, plaidc_npu_site site);

/* IEEE binary16 <-> binary32, round to nearest even (sim_vector.c). */
float npu_half_to_float(uint16_t h);
uint16_t npu_float_to_half(float f);

#endif /* PLAIDC_NPU_SIM_INTERNAL_H */
