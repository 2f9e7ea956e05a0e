/*
 * sim.c — the plaidc NPU simulator: docs/NPU.md made executable.
 *
 * A kernel written in the CCE-like dialect of plaidc_npu.h is linked with this file (and
 * sim_vector.c) and run by plaidc_npu_run(). The C code runs once per core, in program order;
 * every intrinsic
 *   1. checks its arguments, that each operand lies in the memory its unit may touch (the data
 *      path), is aligned, and stays inside the memory (GM: inside one kernel argument);
 *   2. checks every byte range it reads or writes against the unordered accesses of the other
 *      pipes (the hazard checker, below);
 *   3. performs its effect on the simulated memories exactly;
 *   4. charges its cost to its pipe's clock (the timing model, below).
 * The first violation stops the run with a message naming the instruction, its line in the
 * generated C and the byte range involved.
 *
 * Hazards. Pipes run concurrently on the real chip; only set_flag/wait_flag and
 * pipe_barrier(PIPE_ALL) order instructions of different pipes, and instructions of one pipe run
 * in order. The simulator keeps that happens-before relation as vector clocks: known[p][q] is the
 * newest instruction of pipe q that pipe p is guaranteed to see finished. Each 32-B granule of
 * every memory remembers its last writer and, per pipe, its last reader; an access by pipe p
 * that is not ordered after a conflicting access of another pipe (read-after-write,
 * write-after-read, write-after-write) is a hazard, because the chip may run the two in either
 * order.
 *
 * Flags. set_flag(src, dst, e) raises flag (src, dst, e) once all earlier src instructions are
 * done; wait_flag(src, dst, e) holds pipe dst until it is raised and lowers it. The scalar unit
 * issues instructions in program order, so a wait_flag whose flag no earlier set_flag raised can
 * never be satisfied: a deadlock. Raising a raised flag would lose one set: also an error.
 *
 * Timing. Each pipe has a clock. An instruction starts at its pipe's clock, which a wait_flag
 * first advances to the flag's release time (the src pipe's clock at set_flag), and occupies the
 * pipe for its cost:
 *   transfers       latency(path) + ceil(bytes / bytes_per_cycle(path))
 *   mad             ceil(m/cube_m) * ceil(k/cube_k) * ceil(n/cube_n)
 *   vector          repeat + vector_latency
 * pipe_barrier(PIPE_ALL) sets every clock to the latest one. The run takes the latest clock of
 * any pipe of any core. Every number comes from the machine description.
 */
#define _XOPEN_SOURCE 700 /* ucontext: each core runs on its own stack */
#define _DEFAULT_SOURCE   /* mmap: MAP_ANONYMOUS, MAP_NORESERVE and MAP_STACK for the cores' stacks */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "sim_internal.h"

/* The run in progress on this thread; intrinsics have no other way to reach it. */
static _Thread_local npu_sim *current_sim;

npu_sim *npu_current(void) {
  if (!current_sim) {
    fprintf(stderr, "plaidc_npu: an intrinsic ran outside plaidc_npu_run\n");
    abort();
  }
  return current_sim;
}

/* ---- Names and messages -------------------------------------------------------------------- */

static const char *const MEM_NAMES[PLAIDC_NMEM] = {"GM", "L1", "UB", "L0A", "L0B", "L0C"};
static const char *const PIPE_NAMES[PLAIDC_NPIPES + 1] = {
    "PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL"};

const char *npu_mem_name(int mem) { return MEM_NAMES[mem]; }
const char *npu_pipe_name(int pipe) { return PIPE_NAMES[pipe]; }

static void vfail(npu_sim *s, plaidc_npu_site site, const char *note, const char *fmt,
                  va_list args) {
  plaidc_npu_error *e = s->error;
  snprintf(e->instruction, sizeof e->instruction, "%s", site.name);
  snprintf(e->file, sizeof e->file, "%s", site.file);
  e->line = (uint64_t)site.line;
  vsnprintf(e->message, sizeof e->message, fmt, args);
  snprintf(e->note, sizeof e->note, "%s", note ? note : "");
}

/* Records an error at `site` without leaving the run (the host's loop reports it). */
static void vfail_site(npu_sim *s, plaidc_npu_site site, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void vfail_site(npu_sim *s, plaidc_npu_site site, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vfail(s, site, NULL, fmt, args);
  va_end(args);
}

_Noreturn void npu_fail(npu_sim *s, plaidc_npu_site site, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vfail(s, site, NULL, fmt, args);
  va_end(args);
  longjmp(s->on_error, 1);
}

_Noreturn void npu_fail_note(npu_sim *s, plaidc_npu_site site, const char *note, const char *fmt,
                             ...) {
  va_list args;
  va_start(args, fmt);
  vfail(s, site, note, fmt, args);
  va_end(args);
  longjmp(s->on_error, 1);
}

/* The GM argument whose slot contains arena offset `off`, or NULL. */
static const npu_gm_buffer *gm_buffer_at(const npu_sim *s, int64_t off) {
  uint64_t lo = 0, hi = s->n_gm_buffers;
  if (off < 0) return NULL;
  while (lo < hi) { /* last buffer with offset <= off */
    uint64_t mid = (lo + hi) / 2;
    if (s->gm_buffers[mid].offset <= (uint64_t)off) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const npu_gm_buffer *b = &s->gm_buffers[lo - 1];
  return (uint64_t)off < b->offset + b->bytes ? b : NULL;
}

static void fmt_hex(char *out, size_t n, int64_t v) {
  if (v < 0) snprintf(out, n, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)v);
  else snprintf(out, n, "0x%" PRIx64, (uint64_t)v);
}

/* "UB bytes [0x100, 0x200)" or, in GM, "GM 'A' bytes [0x0, 0x40)" relative to the argument. */
static void fmt_range(const npu_sim *s, char *out, size_t n, int mem, int64_t off, uint64_t len) {
  char lo[32], hi[32];
  const npu_gm_buffer *b = mem == PLAIDC_MEM_GM ? gm_buffer_at(s, off) : NULL;
  int64_t base = b ? (int64_t)b->offset : 0;
  fmt_hex(lo, sizeof lo, off - base);
  fmt_hex(hi, sizeof hi, off - base + (int64_t)len);
  if (b) snprintf(out, n, "GM '%s' bytes [%s, %s)", b->name, lo, hi);
  else if (mem == PLAIDC_MEM_GM) snprintf(out, n, "GM arena bytes [%s, %s)", lo, hi);
  else snprintf(out, n, "%s bytes [%s, %s)", MEM_NAMES[mem], lo, hi);
}

/* ---- Operands: data paths, alignment, argument ranges -------------------------------------- */

npu_addr npu_operand(npu_sim *s, plaidc_npu_site site, const char *what, const void *p, int want,
                     const char *rule, uint64_t extent) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  uint64_t idx = (a + (UINT64_C(1) << (PLAIDC_NPU_WINDOW_SHIFT - 1))) >> PLAIDC_NPU_WINDOW_SHIFT;
  if (idx < 1 || idx > PLAIDC_NMEM)
    npu_fail(s, site,
             "%s (%p) is not an NPU address: operands must be computed from a *_BASE macro or a "
             "__gm__ kernel argument",
             what, p);
  npu_addr r = {(int)(idx - 1), (int64_t)(a - (uint64_t)PLAIDC_NPU_WINDOW(idx - 1))};
  if (r.mem != want) {
    char range[128];
    fmt_range(s, range, sizeof range, r.mem, r.off, extent);
    npu_fail(s, site, "illegal data path: %s is in %s (%s), but %s", what, MEM_NAMES[r.mem],
             range, rule);
  }
  return r;
}

void npu_check_align(npu_sim *s, plaidc_npu_site site, const char *what, npu_addr a,
                     uint64_t extent) {
  uint64_t align = s->machine->align[a.mem];
  /* GM arguments start on aligned arena offsets, so the arena offset decides. */
  if (a.off % (int64_t)align != 0) {
    char range[128];
    fmt_range(s, range, sizeof range, a.mem, a.off, extent);
    npu_fail(s, site, "misaligned %s: %s does not start on a multiple of %s's %" PRIu64
             "-byte alignment", what, range, MEM_NAMES[a.mem], align);
  }
}

void npu_check_range(npu_sim *s, plaidc_npu_site site, const char *what, int64_t value,
                     int64_t min, int64_t max) {
  if (value < min || value > max)
    npu_fail(s, site, "%s = %" PRId64 " is outside [%" PRId64 ", %" PRId64 "]", what, value, min,
             max);
}

/* ---- Instructions, hazards, timing ----------------------------------------------------------- */

/* One more instruction of intrinsic `name` in the report (names past the slots are not kept). */
static void count_intrinsic(plaidc_npu_report *r, const char *name) {
  uint64_t k = 0;
  while (k < r->intrinsics && strncmp(r->intrinsic_name[k], name, 31) != 0) k++;
  if (k == r->intrinsics) {
    if (k == PLAIDC_INTRINSIC_SLOTS) return;
    strncpy(r->intrinsic_name[k], name, 31);
    r->intrinsics++;
  }
  r->intrinsic_count[k]++;
}

uint32_t npu_issue(npu_sim *s, plaidc_npu_site site, int pipe) {
  if (s->log_len + 1 >= s->log_cap) {
    uint64_t cap = s->log_cap ? 2 * s->log_cap : 4096;
    if (cap > UINT32_MAX) npu_fail(s, site, "more than 2^32 instructions in one kernel");
    npu_instr *grown = realloc(s->log, cap * sizeof *grown);
    if (!grown) npu_fail(s, site, "out of host memory for the instruction log");
    s->log = grown;
    s->log_cap = cap;
  }
  uint32_t id = (uint32_t)++s->log_len;
  s->log[id].site = site;
  s->log[id].pipe = pipe;
  s->last_id[pipe] = id;
  s->report->instructions[pipe]++;
  count_intrinsic(s->report, site.name);
  return id;
}

void npu_retire(npu_sim *s, int pipe, uint64_t cycles) {
  if (s->trace)
    npu_trace(s, PLAIDC_TRACE_INSTR, pipe, s->clock[pipe], cycles, 0, 0, 0,
              s->log[s->last_id[pipe]].site);
  s->clock[pipe] += cycles;
  s->report->busy[pipe] += cycles;
  s->busy[pipe] += cycles;
}

/* Whether instruction `other` is guaranteed to finish before pipe `pipe`'s next instruction. */
static int ordered_before(const npu_sim *s, int pipe, uint32_t other) {
  int q = s->log[other].pipe;
  return q == pipe || other <= s->known[pipe][q];
}

static _Noreturn void hazard(npu_sim *s, uint32_t id, const char *what, int mem, int64_t off,
                             uint64_t len, uint32_t other, const char *kind, const char *verb) {
  const npu_instr *me = &s->log[id], *them = &s->log[other];
  char range[128], note[512];
  fmt_range(s, range, sizeof range, mem, off, len);
  /* The fix sync insertion would make: a flag from the earlier access's pipe to this one. */
  snprintf(note, sizeof note,
           "set_flag(%s, %s, EVENT_IDn) after %s:%d and wait_flag(%s, %s, EVENT_IDn) before "
           "%s:%d would order them",
           PIPE_NAMES[them->pipe], PIPE_NAMES[me->pipe], them->site.file, them->site.line,
           PIPE_NAMES[them->pipe], PIPE_NAMES[me->pipe], me->site.file, me->site.line);
  npu_fail_note(s, me->site, note,
                "%s hazard: %s %s on %s %s %s at %s:%d on %s, and no set_flag/wait_flag or "
                "pipe_barrier(PIPE_ALL) orders the two",
                kind, what, range, PIPE_NAMES[me->pipe], verb, them->site.name, them->site.file,
                them->site.line, PIPE_NAMES[them->pipe]);
}

static void check_hazards(npu_sim *s, uint32_t id, const char *what, int mem, int64_t off,
                          uint64_t len, int is_write) {
  npu_shadow *sh = &s->shadow[mem];
  int pipe = s->log[id].pipe;
  uint64_t g_end = ((uint64_t)off + len - 1) / NPU_GRANULE;
  for (uint64_t g = (uint64_t)off / NPU_GRANULE; g <= g_end; g++) {
    uint32_t w = sh->last_write[g];
    uint32_t *reads = &sh->last_read[g * PLAIDC_NPIPES];
    if (w && !ordered_before(s, pipe, w))
      hazard(s, id, what, mem, off, len, w, is_write ? "write-after-write" : "read-after-write",
             is_write ? "overwrites bytes also written by" : "reads bytes written by");
    if (!is_write) {
      reads[pipe] = id;
      continue;
    }
    for (int q = 0; q < PLAIDC_NPIPES; q++)
      if (reads[q] && q != pipe && reads[q] > s->known[pipe][q])
        hazard(s, id, what, mem, off, len, reads[q], "write-after-read",
               "overwrites bytes still being read by");
    /* Earlier readers are all ordered before this write, hence before anything ordered after
     * it: only the new write needs remembering. */
    sh->last_write[g] = id;
    memset(reads, 0, PLAIDC_NPIPES * sizeof *reads);
  }
}

/* Cores run concurrently and nothing orders them: GM bytes one core writes must not be read or
 * written by another. */
static void check_cores(npu_sim *s, uint32_t id, const char *what, int64_t off, uint64_t len,
                        int is_write) {
  uint64_t g_end = ((uint64_t)off + len - 1) / NPU_GRANULE;
  uint64_t me = UINT64_C(1) << s->core;
  for (uint64_t g = (uint64_t)off / NPU_GRANULE; g <= g_end; g++) {
    int32_t writer = s->gm_writer_core[g];
    uint64_t others = s->gm_reader_cores[g] & ~me;
    int other = writer >= 0 && writer != s->core ? writer : -1;
    if (other < 0 && is_write && others) other = __builtin_ctzll(others);
    if (other >= 0) {
      char range[128];
      fmt_range(s, range, sizeof range, PLAIDC_MEM_GM, off, len);
      npu_fail(s, s->log[id].site,
               "cross-core race: core %" PRId64 " %s %s (%s), which core %d %s; cores are not "
               "ordered",
               s->core, is_write ? "writes" : "reads", range, what, other,
               writer == other ? "writes" : "reads");
    }
    if (is_write) s->gm_writer_core[g] = (int32_t)s->core;
    else s->gm_reader_cores[g] |= me;
  }
}

uint8_t *npu_access(npu_sim *s, uint32_t id, const char *what, int mem, int64_t off, uint64_t len,
                    int is_write) {
  plaidc_npu_site site = s->log[id].site;
  char range[128];
  if (len == 0) return s->mem[mem];
  if (mem == PLAIDC_MEM_GM) {
    const npu_gm_buffer *b = gm_buffer_at(s, off);
    if (!b || (uint64_t)off + len > b->offset + b->bytes) {
      fmt_range(s, range, sizeof range, mem, off, len);
      if (b)
        npu_fail(s, site, "%s %s runs past the end of '%s' (%" PRIu64 " bytes)", what, range,
                 b->name, b->bytes);
      npu_fail(s, site, "%s %s is outside every kernel argument", what, range);
    }
  } else if (off < 0 || (uint64_t)off + len > s->size[mem]) {
    fmt_range(s, range, sizeof range, mem, off, len);
    npu_fail(s, site, "%s %s is outside %s (capacity %" PRIu64 " bytes)", what, range,
             MEM_NAMES[mem], s->size[mem]);
  }
  if (mem != PLAIDC_MEM_GM && (uint64_t)off + len > s->report->peak[mem])
    s->report->peak[mem] = (uint64_t)off + len;
  check_hazards(s, id, what, mem, off, len, is_write);
  if (mem == PLAIDC_MEM_GM && s->machine->cores > 1) check_cores(s, id, what, off, len, is_write);
  return s->mem[mem] + off;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint64_t transfer_cycles(const npu_sim *s, int path, uint64_t bytes) {
  return s->machine->latency[path] + ceil_div(bytes, s->machine->bytes_per_cycle[path]);
}

/* ---- DMA (MTE2, MTE3) -------------------------------------------------------------------- */

typedef struct dma_path {
  int src_mem, dst_mem, pipe;
  const char *src_rule, *dst_rule;
} dma_path;

static const dma_path DMA_PATHS[] = {
    [PLAIDC_PATH_GM_UB] = {PLAIDC_MEM_GM, PLAIDC_MEM_UB, PIPE_MTE2,
                           "copy_gm_to_ubuf (MTE2) reads only GM",
                           "copy_gm_to_ubuf (MTE2) writes only UB"},
    [PLAIDC_PATH_GM_L1] = {PLAIDC_MEM_GM, PLAIDC_MEM_L1, PIPE_MTE2,
                           "copy_gm_to_cbuf (MTE2) reads only GM",
                           "copy_gm_to_cbuf (MTE2) writes only L1"},
    [PLAIDC_PATH_UB_GM] = {PLAIDC_MEM_UB, PLAIDC_MEM_GM, PIPE_MTE3,
                           "copy_ubuf_to_gm (MTE3) reads only UB",
                           "copy_ubuf_to_gm (MTE3) writes only GM"},
    [PLAIDC_PATH_UB_L1] = {PLAIDC_MEM_UB, PLAIDC_MEM_L1, PIPE_MTE3,
                           "copy_ubuf_to_cbuf (MTE3) reads only UB",
                           "copy_ubuf_to_cbuf (MTE3) writes only L1"},
};

void plaidc_npu_dma(plaidc_npu_site site, int path, void *dst, const void *src, int64_t sid,
                    int64_t n_burst, int64_t len_burst, int64_t src_gap, int64_t dst_gap) {
  npu_sim *s = npu_current();
  const dma_path *dp = &DMA_PATHS[path];
  (void)sid; /* stream ids only matter to the real chip's memory system */
  npu_check_range(s, site, "nBurst", n_burst, 1, PLAIDC_NPU_MAX_NBURST);
  npu_check_range(s, site, "lenBurst", len_burst, 1, PLAIDC_NPU_MAX_LENBURST);
  npu_check_range(s, site, "srcGap", src_gap, 0, PLAIDC_NPU_MAX_GAP);
  npu_check_range(s, site, "dstGap", dst_gap, 0, PLAIDC_NPU_MAX_GAP);
  const uint64_t unit = PLAIDC_NPU_BLOCK_BYTES, burst = (uint64_t)len_burst * unit;
  const uint64_t src_step = (uint64_t)(len_burst + src_gap) * unit;
  const uint64_t dst_step = (uint64_t)(len_burst + dst_gap) * unit;
  const uint64_t n = (uint64_t)n_burst;
  npu_addr sa = npu_operand(s, site, "src", src, dp->src_mem, dp->src_rule,
                            (n - 1) * src_step + burst);
  npu_addr da = npu_operand(s, site, "dst", dst, dp->dst_mem, dp->dst_rule,
                            (n - 1) * dst_step + burst);
  npu_check_align(s, site, "src", sa, burst);
  npu_check_align(s, site, "dst", da, burst);
  uint32_t id = npu_issue(s, site, dp->pipe);
  for (uint64_t b = 0; b < n; b++) {
    const uint8_t *from =
        npu_access(s, id, "src", sa.mem, sa.off + (int64_t)(b * src_step), burst, 0);
    uint8_t *to = npu_access(s, id, "dst", da.mem, da.off + (int64_t)(b * dst_step), burst, 1);
    memcpy(to, from, burst); /* different memories: never overlapping */
  }
  s->report->bytes[path] += n * burst;
  npu_retire(s, dp->pipe, transfer_cycles(s, path, n * burst));
}

/* Byte-exact transfers between GM and UB (`copy_gm_to_ubuf_align`, `copy_ubuf_to_gm_align`):
 * GM at any byte, UB in whole 32-B blocks per burst. They cost what the blocks they carry cost. */
void plaidc_npu_dma_align(plaidc_npu_site site, int path, void *dst, const void *src,
                          int64_t sid, int64_t n_burst, int64_t len_burst, int64_t src_gap,
                          int64_t dst_gap) {
  npu_sim *s = npu_current();
  const dma_path *dp = &DMA_PATHS[path];
  const int to_ub = dp->dst_mem == PLAIDC_MEM_UB;
  (void)sid;
  if ((s->machine->lacks >> (to_ub ? PLAIDC_LACKS_GM_UB_ALIGN : PLAIDC_LACKS_UB_GM_ALIGN)) & 1u)
    npu_fail(s, site, "%s is not in this machine's instruction set ([hardware] lacks it)",
             site.name);
  npu_check_range(s, site, "nBurst", n_burst, 1, PLAIDC_NPU_MAX_NBURST);
  npu_check_range(s, site, "lenBurst", len_burst, 1, PLAIDC_NPU_MAX_LENBURST);
  npu_check_range(s, site, to_ub ? "srcGap" : "dstGap", to_ub ? src_gap : dst_gap, 0,
                  (int64_t)PLAIDC_NPU_MAX_BYTE_GAP);
  npu_check_range(s, site, to_ub ? "dstGap" : "srcGap", to_ub ? dst_gap : src_gap, 0,
                  PLAIDC_NPU_MAX_GAP);
  const uint64_t unit = PLAIDC_NPU_BLOCK_BYTES, len = (uint64_t)len_burst;
  const uint64_t blocks = ceil_div(len, unit) * unit; /* a burst's bytes in UB */
  const uint64_t gm_step = len + (uint64_t)(to_ub ? src_gap : dst_gap);
  const uint64_t ub_step = blocks + (uint64_t)(to_ub ? dst_gap : src_gap) * unit;
  const uint64_t n = (uint64_t)n_burst;
  const uint64_t src_step = to_ub ? gm_step : ub_step, dst_step = to_ub ? ub_step : gm_step;
  const uint64_t src_len = to_ub ? len : blocks, dst_len = to_ub ? blocks : len;
  npu_addr sa = npu_operand(s, site, "src", src, dp->src_mem, dp->src_rule,
                            (n - 1) * src_step + src_len);
  npu_addr da = npu_operand(s, site, "dst", dst, dp->dst_mem, dp->dst_rule,
                            (n - 1) * dst_step + dst_len);
  if (to_ub)
    npu_check_align(s, site, "dst", da, dst_len);
  else
    npu_check_align(s, site, "src", sa, src_len);
  uint32_t id = npu_issue(s, site, dp->pipe);
  for (uint64_t b = 0; b < n; b++) {
    const uint8_t *from =
        npu_access(s, id, "src", sa.mem, sa.off + (int64_t)(b * src_step), src_len, 0);
    uint8_t *to = npu_access(s, id, "dst", da.mem, da.off + (int64_t)(b * dst_step), dst_len, 1);
    memcpy(to, from, len); /* different memories: never overlapping */
    if (dst_len > len) memset(to + len, 0, dst_len - len);
  }
  s->report->bytes[path] += n * blocks;
  npu_retire(s, dp->pipe, transfer_cycles(s, path, n * blocks));
}

/* ---- Fractal loads (MTE1) ------------------------------------------------------------------ */

void plaidc_npu_load_fractal(plaidc_npu_site site, int path, void *dst, const void *src,
                             int64_t base_idx, int64_t repeat, int64_t src_stride, int64_t sid,
                             int64_t transpose) {
  npu_sim *s = npu_current();
  const plaidc_npu_machine *m = s->machine;
  const int to_a = path == PLAIDC_PATH_L1_L0A;
  (void)sid;
  npu_check_range(s, site, "repeat", repeat, 1, PLAIDC_NPU_MAX_REPEAT);
  npu_check_range(s, site, "baseIdx", base_idx, 0, PLAIDC_NPU_MAX_STRIDE);
  npu_check_range(s, site, "srcStride", src_stride, 0, PLAIDC_NPU_MAX_STRIDE);
  npu_check_range(s, site, "transpose", transpose, 0, 1);
  /* A fractal as stored in L0: rows x cols fp16 elements, row-major. L0A holds A fractals
   * [cube_m][cube_k]; L0B holds B fractals n-major, i.e. [cube_n][cube_k]. */
  const uint64_t rows = to_a ? m->cube_m : m->cube_n, cols = m->cube_k;
  const uint64_t frac = rows * cols * 2, reps = (uint64_t)repeat;
  const uint64_t last = (uint64_t)base_idx + (reps - 1) * (uint64_t)src_stride;
  npu_addr sa = npu_operand(s, site, "src", src, PLAIDC_MEM_L1,
                            to_a ? "load_cbuf_to_ca (MTE1) reads only L1"
                                 : "load_cbuf_to_cb (MTE1) reads only L1",
                            (last + 1) * frac);
  npu_addr da = npu_operand(s, site, "dst", dst, to_a ? PLAIDC_MEM_L0A : PLAIDC_MEM_L0B,
                            to_a ? "load_cbuf_to_ca (MTE1) writes only L0A"
                                 : "load_cbuf_to_cb (MTE1) writes only L0B",
                            reps * frac);
  npu_check_align(s, site, "src", sa, frac);
  npu_check_align(s, site, "dst", da, reps * frac);
  uint32_t id = npu_issue(s, site, PIPE_MTE1);
  for (uint64_t r = 0; r < reps; r++) {
    uint64_t from_idx = (uint64_t)base_idx + r * (uint64_t)src_stride;
    const uint8_t *from =
        npu_access(s, id, "src", sa.mem, sa.off + (int64_t)(from_idx * frac), frac, 0);
    uint8_t *to = npu_access(s, id, "dst", da.mem, da.off + (int64_t)(r * frac), frac, 1);
    if (!transpose) {
      memcpy(to, from, frac);
      continue;
    }
    /* Transposed: the source fractal is stored [cols][rows]. */
    for (uint64_t i = 0; i < rows; i++)
      for (uint64_t j = 0; j < cols; j++) memcpy(to + 2 * (i * cols + j), from + 2 * (j * rows + i), 2);
  }
  s->report->bytes[path] += reps * frac;
  npu_retire(s, PIPE_MTE1, transfer_cycles(s, path, reps * frac));
}

/* ---- Cube (M) -------------------------------------------------------------------------------- */

static const char *dtype_name(int dt) {
  static const char *const names[] = {"an unsupported pointer type", "half *", "float *",
                                      "int32_t *", "uint8_t *"};
  return names[dt];
}

static void need_dtype(npu_sim *s, plaidc_npu_site site, const char *what, int dt, int want,
                       const char *why) {
  if (dt != want)
    npu_fail(s, site, "%s is %s, but %s needs %s", what, dtype_name(dt), why, dtype_name(want));
}

static float load_f32(const uint8_t *p) {
  float v;
  memcpy(&v, p, sizeof v);
  return v;
}

static float load_f16(const uint8_t *p) {
  uint16_t h;
  memcpy(&h, p, sizeof h);
  return npu_half_to_float(h);
}

/* ---- img2col (MTE1): a convolution window's fractals, L1 -> L0A ------------------------------ */

enum {
  I2C_BASE, I2C_IMG, I2C_ROW, I2C_PIX, I2C_FMH, I2C_FMW, I2C_CHANNELS, I2C_HSTART, I2C_WSTART,
  I2C_SH, I2C_SW, I2C_DH, I2C_DW, I2C_OUTH, I2C_OUTW, I2C_MCOUNT, I2C_KW, I2C_C1, I2C_MFRACTALS,
  I2C_KFRACTALS, I2C_NPARAMS
};

void plaidc_npu_img2col(plaidc_npu_site site, void *dst, int dst_dtype, const void *src,
                        int src_dtype, const int64_t *p, double pad_value) {
  static const char *const names[I2C_NPARAMS] = {
      "base",    "imgStride", "rowStride", "pixStride", "fmH",  "fmW",      "channels",
      "hStart",  "wStart",    "strideH",   "strideW",   "dilH", "dilW",     "outH",
      "outW",    "mCount",    "kW",        "c1",        "mFractals", "kFractals"};
  npu_sim *s = npu_current();
  const plaidc_npu_machine *mc = s->machine;
  need_dtype(s, site, "dst", dst_dtype, PLAIDC_DT_F16, "img2col writes fp16 fractals");
  need_dtype(s, site, "src", src_dtype, PLAIDC_DT_F16, "img2col reads an fp16 feature map");
  const int64_t big = INT32_MAX;
  for (int i = 0; i < I2C_NPARAMS; i++) {
    int signed_param = i == I2C_HSTART || i == I2C_WSTART;
    int positive = i == I2C_FMH || i == I2C_FMW || i == I2C_CHANNELS || i == I2C_OUTH ||
                   i == I2C_OUTW ||
                   i == I2C_KW || i == I2C_C1 || i == I2C_MFRACTALS || i == I2C_KFRACTALS;
    npu_check_range(s, site, names[i], p[i], signed_param ? -big : positive ? 1 : 0, big);
  }
  const int64_t fm = (int64_t)mc->cube_m, fk = (int64_t)mc->cube_k;
  const uint64_t frac = (uint64_t)(fm * fk) * 2;
  const uint64_t dst_bytes = (uint64_t)(p[I2C_MFRACTALS] * p[I2C_KFRACTALS]) * frac;
  /* The feature maps the parameters describe: every element it may read lies in these bytes. */
  const int64_t plane = p[I2C_OUTH] * p[I2C_OUTW];
  const int64_t images = p[I2C_MCOUNT] > 0 ? (p[I2C_MCOUNT] - 1) / plane : 0;
  const uint64_t map_bytes =
      2 * (uint64_t)(p[I2C_BASE] + images * p[I2C_IMG] + (p[I2C_FMH] - 1) * p[I2C_ROW] +
                     (p[I2C_FMW] - 1) * p[I2C_PIX] + p[I2C_CHANNELS]);
  npu_addr sa = npu_operand(s, site, "src", src, PLAIDC_MEM_L1,
                            "img2col_cbuf_to_ca (MTE1) reads only L1", map_bytes);
  npu_addr da = npu_operand(s, site, "dst", dst, PLAIDC_MEM_L0A,
                            "img2col_cbuf_to_ca (MTE1) writes only L0A", dst_bytes);
  npu_check_align(s, site, "src", sa, map_bytes);
  npu_check_align(s, site, "dst", da, dst_bytes);
  if (sa.off < 0 || (uint64_t)sa.off + map_bytes > s->size[PLAIDC_MEM_L1]) {
    char range[128];
    fmt_range(s, range, sizeof range, sa.mem, sa.off, map_bytes);
    npu_fail(s, site, "the feature map %s is outside L1 (capacity %" PRIu64 " bytes)", range,
             s->size[PLAIDC_MEM_L1]);
  }
  uint32_t id = npu_issue(s, site, PIPE_MTE1);
  uint8_t *out = npu_access(s, id, "dst", da.mem, da.off, dst_bytes, 1);
  const uint16_t pad = npu_float_to_half((float)pad_value);
  const int64_t c1 = p[I2C_C1], kw = p[I2C_KW], outw = p[I2C_OUTW];
  for (int64_t mo = 0; mo < p[I2C_MFRACTALS]; mo++)
    for (int64_t ko = 0; ko < p[I2C_KFRACTALS]; ko++) {
      const int64_t window = ko / c1, c0 = (ko % c1) * fk;
      const int64_t u = window / kw, v = window % kw;
      int64_t nc = p[I2C_CHANNELS] - c0;
      nc = nc < 0 ? 0 : nc > fk ? fk : nc;
      uint8_t *fractal = out + (uint64_t)(mo * p[I2C_KFRACTALS] + ko) * frac;
      for (int64_t r = 0; r < fm; r++) {
        uint8_t *row = fractal + (uint64_t)(r * fk) * 2;
        const int64_t m = mo * fm + r;
        int64_t valid = 0;
        if (m < p[I2C_MCOUNT] && nc > 0) {
          const int64_t b = m / plane, in = m % plane;
          const int64_t h = p[I2C_HSTART] + p[I2C_SH] * (in / outw) + p[I2C_DH] * u;
          const int64_t w = p[I2C_WSTART] + p[I2C_SW] * (in % outw) + p[I2C_DW] * v;
          if (h >= 0 && h < p[I2C_FMH] && w >= 0 && w < p[I2C_FMW]) {
            const int64_t elem =
                p[I2C_BASE] + b * p[I2C_IMG] + h * p[I2C_ROW] + w * p[I2C_PIX] + c0;
            const uint8_t *from = npu_access(s, id, "src", sa.mem, sa.off + 2 * elem,
                                             (uint64_t)nc * 2, 0);
            memcpy(row, from, (size_t)nc * 2);
            valid = nc;
          }
        }
        for (int64_t e = valid; e < fk; e++) memcpy(row + 2 * e, &pad, 2);
      }
    }
  s->report->bytes[PLAIDC_PATH_L1_L0A] += dst_bytes;
  npu_retire(s, PIPE_MTE1,
             mc->img2col_latency + ceil_div(dst_bytes, mc->img2col_bytes_per_cycle));
}

void plaidc_npu_mad(plaidc_npu_site site, void *c, int c_dtype, const void *a, int a_dtype,
                    const void *b, int b_dtype, int64_t m, int64_t k, int64_t n, int64_t init) {
  npu_sim *s = npu_current();
  const plaidc_npu_machine *mc = s->machine;
  need_dtype(s, site, "a", a_dtype, PLAIDC_DT_F16, "the Cube's left operand (fp16)");
  need_dtype(s, site, "b", b_dtype, PLAIDC_DT_F16, "the Cube's right operand (fp16)");
  need_dtype(s, site, "c", c_dtype, PLAIDC_DT_F32, "the Cube's accumulator (fp32)");
  npu_check_range(s, site, "m", m, 1, PLAIDC_NPU_MAX_MAD_DIM);
  npu_check_range(s, site, "k", k, 1, PLAIDC_NPU_MAX_MAD_DIM);
  npu_check_range(s, site, "n", n, 1, PLAIDC_NPU_MAX_MAD_DIM);
  npu_check_range(s, site, "init", init, 0, 1);
  const uint64_t fm = mc->cube_m, fk = mc->cube_k, fn = mc->cube_n;
  const uint64_t mo = ceil_div((uint64_t)m, fm), ko = ceil_div((uint64_t)k, fk);
  const uint64_t no = ceil_div((uint64_t)n, fn);
  const uint64_t a_bytes = mo * ko * fm * fk * 2, b_bytes = ko * no * fk * fn * 2;
  const uint64_t c_bytes = no * mo * fm * fn * 4;
  npu_addr aa = npu_operand(s, site, "a", a, PLAIDC_MEM_L0A,
                            "the Cube reads its left operand only from L0A", a_bytes);
  npu_addr ba = npu_operand(s, site, "b", b, PLAIDC_MEM_L0B,
                            "the Cube reads its right operand only from L0B", b_bytes);
  npu_addr ca = npu_operand(s, site, "c", c, PLAIDC_MEM_L0C,
                            "the Cube accumulates only into L0C", c_bytes);
  npu_check_align(s, site, "a", aa, a_bytes);
  npu_check_align(s, site, "b", ba, b_bytes);
  npu_check_align(s, site, "c", ca, c_bytes);
  uint32_t id = npu_issue(s, site, PIPE_M);
  const uint8_t *pa = npu_access(s, id, "a", aa.mem, aa.off, a_bytes, 0);
  const uint8_t *pb = npu_access(s, id, "b", ba.mem, ba.off, b_bytes, 0);
  if (!init) npu_access(s, id, "c", ca.mem, ca.off, c_bytes, 0);
  uint8_t *pc = npu_access(s, id, "c", ca.mem, ca.off, c_bytes, 1);

  /* Unpack the fractals into dense row-major A[m][k], B[k][n] (fp16 -> fp32 is exact). */
  const uint64_t um = (uint64_t)m, uk = (uint64_t)k, un = (uint64_t)n;
  float *A = malloc(um * uk * sizeof *A), *B = malloc(uk * un * sizeof *B);
  if (!A || !B) {
    free(A);
    free(B);
    npu_fail(s, site, "out of host memory");
  }
  for (uint64_t i = 0; i < um; i++)
    for (uint64_t kk = 0; kk < uk; kk++) /* A: [Mo][Ko][cube_m][cube_k] */
      A[i * uk + kk] = load_f16(pa + 2 * (((i / fm) * ko + kk / fk) * fm * fk +
                                          (i % fm) * fk + kk % fk));
  for (uint64_t kk = 0; kk < uk; kk++)
    for (uint64_t j = 0; j < un; j++) /* B: [Ko][No][cube_n][cube_k], n-major in a fractal */
      B[kk * un + j] = load_f16(pb + 2 * (((kk / fk) * no + j / fn) * fk * fn +
                                          (j % fn) * fk + kk % fk));
  /* C: [No][Mo][cube_m][cube_n]. Products of fp16 values are exact in fp32; the sum runs over k
   * in increasing order in fp32, starting from the old C unless init. */
  for (uint64_t i = 0; i < um; i++)
    for (uint64_t j = 0; j < un; j++) {
      uint8_t *pcij = pc + 4 * (((j / fn) * mo + i / fm) * fm * fn + (i % fm) * fn + j % fn);
      float acc = init ? 0.0f : load_f32(pcij);
      for (uint64_t kk = 0; kk < uk; kk++) acc += A[i * uk + kk] * B[kk * un + j];
      memcpy(pcij, &acc, sizeof acc);
    }
  free(A);
  free(B);
  s->report->macs += um * uk * un;
  npu_retire(s, PIPE_M, mo * ko * no);
}

/* ---- L0C -> UB (V) ------------------------------------------------------------------------- */

void plaidc_npu_copy_cc(plaidc_npu_site site, void *dst, int dst_dtype, const void *src,
                        int src_dtype, int64_t sid, int64_t n_burst, int64_t len_burst,
                        int64_t src_gap, int64_t dst_gap, int64_t mode) {
  npu_sim *s = npu_current();
  const plaidc_npu_machine *mc = s->machine;
  (void)sid;
  npu_check_range(s, site, "mode", mode, CC_MODE_F32, CC_MODE_F16_RELU);
  const int to_f16 = (mode & CC_MODE_F16) != 0, relu = (mode & CC_MODE_F32_RELU) != 0;
  need_dtype(s, site, "src", src_dtype, PLAIDC_DT_F32, "L0C (fp32 fractals)");
  need_dtype(s, site, "dst", dst_dtype, to_f16 ? PLAIDC_DT_F16 : PLAIDC_DT_F32,
             to_f16 ? "a converting mode (CC_MODE_F16*)" : "a non-converting mode (CC_MODE_F32*)");
  npu_check_range(s, site, "nBurst", n_burst, 1, PLAIDC_NPU_MAX_NBURST);
  npu_check_range(s, site, "lenBurst", len_burst, 1, PLAIDC_NPU_MAX_LENBURST);
  npu_check_range(s, site, "srcGap", src_gap, 0, PLAIDC_NPU_MAX_GAP);
  npu_check_range(s, site, "dstGap", dst_gap, 0, PLAIDC_NPU_MAX_GAP);
  /* Lengths and gaps count fractals: cube_m x cube_n fp32 in L0C, of the dst type in UB. */
  const uint64_t elems = mc->cube_m * mc->cube_n, out_size = to_f16 ? 2 : 4;
  const uint64_t n = (uint64_t)n_burst, len = (uint64_t)len_burst;
  const uint64_t src_step = (len + (uint64_t)src_gap) * elems * 4;
  const uint64_t dst_step = (len + (uint64_t)dst_gap) * elems * out_size;
  const uint64_t src_burst = len * elems * 4, dst_burst = len * elems * out_size;
  npu_addr sa = npu_operand(s, site, "src", src, PLAIDC_MEM_L0C,
                            "copy_matrix_cc_to_ubuf reads only L0C", (n - 1) * src_step + src_burst);
  npu_addr da = npu_operand(s, site, "dst", dst, PLAIDC_MEM_UB,
                            "copy_matrix_cc_to_ubuf writes only UB", (n - 1) * dst_step + dst_burst);
  npu_check_align(s, site, "src", sa, src_burst);
  npu_check_align(s, site, "dst", da, dst_burst);
  uint32_t id = npu_issue(s, site, PIPE_V);
  for (uint64_t b = 0; b < n; b++) {
    const uint8_t *from =
        npu_access(s, id, "src", sa.mem, sa.off + (int64_t)(b * src_step), src_burst, 0);
    uint8_t *to = npu_access(s, id, "dst", da.mem, da.off + (int64_t)(b * dst_step), dst_burst, 1);
    for (uint64_t e = 0; e < len * elems; e++) {
      float v = load_f32(from + 4 * e);
      if (relu && v < 0.0f) v = 0.0f; /* NaN stays NaN, as numpy's maximum(x, 0) */
      if (to_f16) {
        uint16_t h = npu_float_to_half(v);
        memcpy(to + 2 * e, &h, 2);
      } else {
        memcpy(to + 4 * e, &v, 4);
      }
    }
  }
  s->report->bytes[PLAIDC_PATH_L0C_UB] += n * src_burst;
  npu_retire(s, PIPE_V, transfer_cycles(s, PLAIDC_PATH_L0C_UB, n * src_burst));
}

/* ---- Synchronisation --------------------------------------------------------------------- */

static void check_flag_args(npu_sim *s, plaidc_npu_site site, int64_t src, int64_t dst,
                            int64_t event) {
  npu_check_range(s, site, "src pipe", src, 0, PLAIDC_NPIPES - 1);
  npu_check_range(s, site, "dst pipe", dst, 0, PLAIDC_NPIPES - 1);
  npu_check_range(s, site, "event", event, 0, PLAIDC_NEVENTS - 1);
  if (src == dst)
    npu_fail(s, site, "a flag from %s to itself: a pipe is already ordered with itself",
             PIPE_NAMES[src]);
}

void plaidc_npu_set_flag(plaidc_npu_site site, int64_t src, int64_t dst, int64_t event) {
  npu_sim *s = npu_current();
  check_flag_args(s, site, src, dst, event);
  npu_flag *f = &s->flags[src][dst][event];
  if (f->raised)
    npu_fail(s, site,
             "set_flag(%s, %s, EVENT_ID%" PRId64 ") raises a flag that is already raised "
             "(set_flag at %s:%d) and not yet waited for: one of the two would be lost",
             PIPE_NAMES[src], PIPE_NAMES[dst], event, f->site.file, f->site.line);
  f->raised = 1;
  f->release = s->clock[src];
  memcpy(f->known, s->known[src], sizeof f->known);
  f->known[src] = s->last_id[src];
  f->site = site;
  if (s->trace) {
    f->flow = ++*s->flows;
    npu_trace(s, PLAIDC_TRACE_SET_FLAG, (int)src, f->release, 0, f->flow,
              (uint64_t)dst, (uint64_t)event, site);
  }
}

void plaidc_npu_wait_flag(plaidc_npu_site site, int64_t src, int64_t dst, int64_t event) {
  npu_sim *s = npu_current();
  check_flag_args(s, site, src, dst, event);
  npu_flag *f = &s->flags[src][dst][event];
  if (!f->raised)
    npu_fail(s, site,
             "deadlock: wait_flag(%s, %s, EVENT_ID%" PRId64 ") waits for a flag that no earlier "
             "set_flag(%s, %s, EVENT_ID%" PRId64 ") raised, so %s would wait forever",
             PIPE_NAMES[src], PIPE_NAMES[dst], event, PIPE_NAMES[src], PIPE_NAMES[dst], event,
             PIPE_NAMES[dst]);
  if (s->trace)
    npu_trace(s, PLAIDC_TRACE_WAIT_FLAG, (int)dst, s->clock[dst],
              f->release > s->clock[dst] ? f->release - s->clock[dst] : 0, f->flow,
              (uint64_t)src, (uint64_t)event, site);
  if (f->release > s->clock[dst]) s->clock[dst] = f->release;
  for (int q = 0; q < PLAIDC_NPIPES; q++)
    if (f->known[q] > s->known[dst][q]) s->known[dst][q] = f->known[q];
  f->raised = 0;
}

void plaidc_npu_pipe_barrier(plaidc_npu_site site, int64_t pipe) {
  npu_sim *s = npu_current();
  npu_check_range(s, site, "pipe", pipe, 0, PIPE_ALL);
  /* A single pipe already runs its instructions in order: only PIPE_ALL orders anything. */
  if (pipe != PIPE_ALL) return;
  uint64_t t = 0;
  for (int p = 0; p < PLAIDC_NPIPES; p++)
    if (s->clock[p] > t) t = s->clock[p];
  for (int p = 0; p < PLAIDC_NPIPES; p++) {
    s->clock[p] = t;
    memcpy(s->known[p], s->last_id, sizeof s->last_id);
  }
}

int64_t plaidc_npu_block_idx(void) { return npu_current()->core; }
int64_t plaidc_npu_block_num(void) { return (int64_t)npu_current()->machine->cores; }

void plaidc_npu_set_vector_mask(plaidc_npu_site site, uint64_t hi, uint64_t lo) {
  npu_sim *s = npu_current();
  (void)site; /* the mask is state of the vector pipe, read by the next vector instructions */
  s->mask_hi = hi;
  s->mask_lo = lo;
}

/* ---- Runs ---------------------------------------------------------------------------------- */

/* Cores. Every core runs the kernel function with its own memories, pipes, flags and history
 * (an npu_sim each); GM and the report are shared. Cores run one at a time on their own stacks
 * (ucontext coroutines): a core runs until it finishes or reaches sync_all_cores, then the next
 * one runs. When every core is at the barrier, all resume at the latest arrival plus the
 * barrier's latency, with the cross-core GM record cleared: what any core wrote before the
 * barrier every core may read after it. The simulation is deterministic. */
enum { CORE_RUNNING, CORE_AT_BARRIER, CORE_DONE };

typedef struct npu_core {
  npu_sim *sim;
  ucontext_t context;
  void *stack;
  int state;
  plaidc_npu_site barrier_site; /* the sync_all_cores it waits at */
  uint64_t arrival;             /* its latest clock when it arrived */
} npu_core;

typedef struct npu_cores {
  npu_core *core;
  uint64_t n;
  ucontext_t main;
  plaidc_npu_entry_fn entry;
  void **args;
  int failed;        /* a core stopped with an error (in s->error) */
  uint64_t flows;    /* set_flags traced so far, over all cores */
} npu_cores;

/* Each simulated core runs the kernel on a stack of its own. A kernel is one straight-line C
   function whose inlined helpers each get stack slots, so thousands of tiles need frames of
   megabytes (9.4 MB for a 4096-tile matmul): reserve 1 GiB of address space per core (pages
   are used only as touched, MAP_NORESERVE), with a guard page below it, as the Python runner
   does for the thread that calls the kernel. */
#define NPU_CORE_STACK_BYTES ((size_t)1 << 30)
#define NPU_CORE_STACK_GUARD ((size_t)1 << 16)

static void *new_core_stack(void) {
  void *p = mmap(NULL, NPU_CORE_STACK_BYTES + NPU_CORE_STACK_GUARD, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) return NULL;
  if (mprotect(p, NPU_CORE_STACK_GUARD, PROT_NONE) != 0) {
    munmap(p, NPU_CORE_STACK_BYTES + NPU_CORE_STACK_GUARD);
    return NULL;
  }
  return (char *)p + NPU_CORE_STACK_GUARD;
}

static void free_core_stack(void *stack) {
  if (stack)
    munmap((char *)stack - NPU_CORE_STACK_GUARD, NPU_CORE_STACK_BYTES + NPU_CORE_STACK_GUARD);
}

static uint64_t latest_clock(const npu_sim *s) {
  uint64_t t = 0;
  for (int p = 0; p < PLAIDC_NPIPES; p++)
    if (s->clock[p] > t) t = s->clock[p];
  return t;
}

static void clear_gm_cores(npu_sim *s) {
  uint64_t g = s->shadow[PLAIDC_MEM_GM].granules;
  if (!s->gm_writer_core) return;
  memset(s->gm_writer_core, 0xFF, (g ? g : 1) * sizeof(int32_t)); /* -1: none */
  memset(s->gm_reader_cores, 0, (g ? g : 1) * sizeof(uint64_t));
}

void plaidc_npu_sync_all_cores(plaidc_npu_site site) {
  npu_sim *s = npu_current();
  npu_cores *all = s->cores;
  npu_core *me = &all->core[s->core];
  plaidc_npu_pipe_barrier(site, PIPE_ALL); /* this core's pipes drain first */
  count_intrinsic(s->report, site.name);
  me->state = CORE_AT_BARRIER;
  me->barrier_site = site;
  me->arrival = latest_clock(s);
  swapcontext(&me->context, &all->main); /* the others run up to here; then all resume */
  current_sim = s;
}

/* Resumes every core at the barrier they all reached. */
static void release_barrier(npu_cores *all) {
  uint64_t t = 0;
  for (uint64_t c = 0; c < all->n; c++)
    if (all->core[c].arrival > t) t = all->core[c].arrival;
  t += all->core[0].sim->machine->core_barrier_latency;
  all->core[0].sim->report->core_barriers++;
  for (uint64_t c = 0; c < all->n; c++) {
    npu_sim *s = all->core[c].sim;
    if (s->trace)
      npu_trace(s, PLAIDC_TRACE_CORE_BARRIER, PIPE_S, all->core[c].arrival,
                t - all->core[c].arrival, 0, 0, 0, all->core[c].barrier_site);
    for (int p = 0; p < PLAIDC_NPIPES; p++) s->clock[p] = t;
    all->core[c].state = CORE_RUNNING;
  }
  clear_gm_cores(all->core[0].sim);
}

static void finish_core(npu_sim *s);

static void core_main(unsigned lo, unsigned hi) {
  npu_core *me = (npu_core *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo);
  npu_sim *s = me->sim;
  npu_cores *all = s->cores;
  current_sim = s;
  if (setjmp(s->on_error)) all->failed = 1;
  else {
    all->entry(all->args);
    finish_core(s);
  }
  me->state = CORE_DONE;
  /* returning resumes uc_link: the host's loop */
}

static int setup_error(plaidc_npu_error *error, const char *message) {
  snprintf(error->message, sizeof error->message, "%s", message);
  return 2;
}

static const char *check_machine(const plaidc_npu_machine *m) {
  for (int mem = 0; mem < PLAIDC_NMEM; mem++) {
    if (mem != PLAIDC_MEM_GM && m->capacity[mem] == 0) return "every on-chip capacity must be > 0";
    if (m->align[mem] == 0) return "every alignment must be > 0";
  }
  for (int p = 0; p < PLAIDC_NPATHS; p++)
    if (m->bytes_per_cycle[p] == 0) return "every bandwidth must be > 0 bytes per cycle";
  if (!m->cube_m || !m->cube_k || !m->cube_n) return "the Cube's dimensions must be > 0";
  if (m->img2col_bytes_per_cycle == 0) return "img2col_bytes_per_cycle must be > 0";
  if (m->vector_repeat_bytes < PLAIDC_NPU_BLOCK_BYTES || m->vector_repeat_bytes > 256 ||
      m->vector_repeat_bytes % PLAIDC_NPU_BLOCK_BYTES)
    return "vector_repeat_bytes must be a multiple of 32 in [32, 256] (128 mask lanes of fp16)";
  if (m->cores < 1 || m->cores > PLAIDC_MAX_CORES) return "cores must be in [1, 64]";
  return NULL;
}

static int alloc_shadow(npu_shadow *sh, uint64_t bytes) {
  sh->granules = (bytes + NPU_GRANULE - 1) / NPU_GRANULE;
  sh->last_write = calloc(sh->granules ? sh->granules : 1, sizeof *sh->last_write);
  sh->last_read = calloc(sh->granules ? sh->granules * PLAIDC_NPIPES : 1, sizeof *sh->last_read);
  return sh->last_write && sh->last_read;
}

static void free_sim(npu_sim *s) {
  if (!s) return;
  for (int mem = 0; mem < PLAIDC_NMEM; mem++) {
    if (mem != PLAIDC_MEM_GM) free(s->mem[mem]);
    free(s->shadow[mem].last_write);
    free(s->shadow[mem].last_read);
  }
  free(s->log);
  free(s);
}

/* A core starts with poisoned on-chip memories (0xFF bytes: NaN in fp16 and fp32), idle pipes,
 * lowered flags, a full vector mask and no history. */
static npu_sim *new_core(const npu_sim *shared, int64_t core) {
  npu_sim *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  *s = *shared;
  s->log = NULL;
  s->log_len = s->log_cap = 0;
  s->core = core;
  s->mask_hi = s->mask_lo = UINT64_MAX;
  int ok = 1;
  for (int mem = 0; mem < PLAIDC_NMEM; mem++) {
    s->shadow[mem] = (npu_shadow){0};
    if (mem != PLAIDC_MEM_GM) s->mem[mem] = NULL;
  }
  for (int mem = 0; mem < PLAIDC_NMEM && ok; mem++) {
    if (mem != PLAIDC_MEM_GM) {
      ok = (s->mem[mem] = malloc(s->size[mem])) != NULL;
      if (ok) memset(s->mem[mem], 0xFF, s->size[mem]);
    }
    ok = ok && alloc_shadow(&s->shadow[mem], s->size[mem]);
  }
  if (!ok) {
    free_sim(s);
    return NULL;
  }
  return s;
}

static void finish_core(npu_sim *s) {
  plaidc_npu_report *r = s->report;
  uint64_t t = latest_clock(s);
  if (t > r->total_cycles) r->total_cycles = t;
  r->core_cycles[s->core] = t;
  for (int mem = 0; mem < PLAIDC_NMEM; mem++) {
    const npu_shadow *sh = &s->shadow[mem];
    uint64_t touched = 0;
    for (uint64_t g = 0; g < sh->granules; g++) {
      int used = sh->last_write[g] != 0;
      for (int q = 0; q < PLAIDC_NPIPES && !used; q++) used = sh->last_read[g * PLAIDC_NPIPES + q];
      touched += used != 0;
    }
    touched *= NPU_GRANULE;
    if (touched > s->size[mem]) touched = s->size[mem];
    if (touched > r->touched[mem]) r->touched[mem] = touched;
  }
  for (int p = 0; p < PLAIDC_NPIPES; p++)
    for (int q = 0; q < PLAIDC_NPIPES; q++)
      for (int e = 0; e < PLAIDC_NEVENTS; e++) r->unwaited_flags += (uint64_t)s->flags[p][q][e].raised;
}

/* Runs the cores until all are done, releasing each barrier they all reach; 0 or 1 (error). */
static int run_cores(npu_cores *all) {
  for (;;) {
    int running = 0, waiting = 0;
    for (uint64_t c = 0; c < all->n && !all->failed; c++) {
      npu_core *core = &all->core[c];
      if (core->state != CORE_RUNNING) continue;
      running = 1;
      swapcontext(&all->main, &core->context);
    }
    if (all->failed) return 1;
    if (running) continue; /* every core ran until its barrier or its end */
    uint64_t done = 0;
    for (uint64_t c = 0; c < all->n; c++) {
      waiting += all->core[c].state == CORE_AT_BARRIER;
      done += all->core[c].state == CORE_DONE;
    }
    if (!waiting) return 0;
    if (done) { /* some finished: the others wait forever */
      uint64_t c = 0, d = 0;
      while (all->core[c].state != CORE_AT_BARRIER) c++;
      while (all->core[d].state != CORE_DONE) d++;
      npu_sim *s = all->core[c].sim;
      vfail_site(s, all->core[c].barrier_site,
                 "deadlock: core %" PRIu64 " waits at sync_all_cores, which core %" PRIu64
                 " finished without reaching",
                 c, d);
      return 1;
    }
    release_barrier(all);
  }
}

int plaidc_npu_run(const plaidc_npu_machine *machine, plaidc_npu_entry_fn entry, uint8_t *gm,
                   uint64_t gm_bytes, uint64_t nbuf, const uint64_t *buf_offset,
                   const uint64_t *buf_bytes, const char *const *buf_names,
                   plaidc_npu_report *report, plaidc_npu_error *error,
                   plaidc_npu_trace *trace) {
  memset(report, 0, sizeof *report);
  if (trace) trace->count = trace->dropped = 0;
  memset(error, 0, sizeof *error);
  const char *bad = check_machine(machine);
  if (bad) return setup_error(error, bad);
  for (uint64_t i = 0; i < nbuf; i++) {
    if (buf_offset[i] % machine->align[PLAIDC_MEM_GM] || buf_offset[i] + buf_bytes[i] > gm_bytes ||
        (i && buf_offset[i] < buf_offset[i - 1] + buf_bytes[i - 1]))
      return setup_error(error, "GM arguments must be aligned, ordered, disjoint slots");
  }
  npu_sim shared = {0};
  npu_cores all = {0};
  npu_gm_buffer *buffers = calloc(nbuf ? nbuf : 1, sizeof *buffers);
  void **args = calloc(nbuf ? nbuf : 1, sizeof *args);
  all.n = machine->cores;
  all.core = calloc(all.n, sizeof *all.core);
  int ok = buffers && args && all.core;
  shared.machine = machine;
  shared.cores = &all;
  shared.report = report;
  shared.error = error;
  shared.trace = trace;
  shared.flows = &all.flows;
  shared.mem[PLAIDC_MEM_GM] = gm;
  for (int mem = 0; mem < PLAIDC_NMEM; mem++)
    shared.size[mem] = mem == PLAIDC_MEM_GM ? gm_bytes : machine->capacity[mem];
  uint64_t g = (gm_bytes + NPU_GRANULE - 1) / NPU_GRANULE;
  shared.shadow[PLAIDC_MEM_GM].granules = g;
  if (ok && machine->cores > 1) {
    ok = (shared.gm_writer_core = malloc((g ? g : 1) * sizeof(int32_t))) != NULL &&
         (shared.gm_reader_cores = calloc(g ? g : 1, sizeof(uint64_t))) != NULL;
    if (ok) clear_gm_cores(&shared);
  }
  for (uint64_t i = 0; ok && i < nbuf; i++) {
    buffers[i] = (npu_gm_buffer){buf_offset[i], buf_bytes[i], buf_names[i]};
    args[i] = (void *)(PLAIDC_NPU_WINDOW(PLAIDC_MEM_GM) + buf_offset[i]);
  }
  shared.gm_buffers = buffers;
  shared.n_gm_buffers = nbuf;
  all.entry = entry;
  all.args = args;
  for (uint64_t c = 0; ok && c < all.n; c++) {
    npu_core *core = &all.core[c];
    ok = (core->sim = new_core(&shared, (int64_t)c)) != NULL &&
         (core->stack = new_core_stack()) != NULL && getcontext(&core->context) == 0;
    if (!ok) break;
    core->context.uc_stack.ss_sp = core->stack;
    core->context.uc_stack.ss_size = NPU_CORE_STACK_BYTES;
    core->context.uc_link = &all.main;
    uintptr_t p = (uintptr_t)core;
    makecontext(&core->context, (void (*)(void))core_main, 2, (unsigned)(p & 0xFFFFFFFFu),
                (unsigned)(p >> 16 >> 16));
    core->state = CORE_RUNNING;
  }
  int rc = ok ? run_cores(&all) : 2;
  if (rc == 2) setup_error(error, "out of host memory for the simulated machine");
  current_sim = NULL;
  for (uint64_t c = 0; all.core && c < all.n; c++) {
    npu_sim *s = all.core[c].sim;
    if (s && rc == 0)
      for (int p = 0; p < PLAIDC_NPIPES; p++) report->core_busy[c][p] = s->busy[p];
    free_sim(s);
    free_core_stack(all.core[c].stack);
  }
  free(all.core);
  free(shared.gm_writer_core);
  free(shared.gm_reader_cores);
  free(buffers);
  free(args);
  return rc;
}

void plaidc_npu_abi(uint64_t out[8]) {
  out[0] = sizeof(plaidc_npu_machine);
  out[1] = sizeof(plaidc_npu_report);
  out[2] = sizeof(plaidc_npu_error);
  out[3] = PLAIDC_NMEM;
  out[4] = PLAIDC_NPIPES;
  out[5] = PLAIDC_NPATHS;
  out[6] = PLAIDC_NOPTIONAL;
  out[7] = sizeof(plaidc_npu_trace_record);
}
