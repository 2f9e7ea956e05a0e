/*
 * sim_trace.c — the simulator's timeline, for `plaidc run -t npu --trace` (docs/npu.md).
 *
 * Recording happens only when the host hands plaidc_npu_run a plaidc_npu_trace; otherwise the
 * intrinsics test one pointer and record nothing. The host owns the record array and its
 * capacity (the event cap): once it is full, later records are counted in `dropped` and lost,
 * so a long run costs bounded memory and the host can say the timeline is cut short.
 */
#include "sim_internal.h"

void npu_trace(npu_sim *s, int kind, int pipe, uint64_t start, uint64_t cycles, uint64_t flow,
               uint64_t peer, uint64_t event, plaidc_npu_site site) {
  plaidc_npu_trace *t = s->trace;
  if (t->count >= t->capacity) {
    t->dropped++;
    return;
  }
  t->records[t->count++] = (plaidc_npu_trace_record){
      .kind = (uint64_t)kind,
      .core = (uint64_t)s->core,
      .pipe = (uint64_t)pipe,
      .start = start,
      .cycles = cycles,
      .flow = flow,
      .peer = peer,
      .event = event,
      .line = site.line > 0 ? (uint64_t)site.line : 0,
      .name = site.name,
      .file = site.file,
  };
}
