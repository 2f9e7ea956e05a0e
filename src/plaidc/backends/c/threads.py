"""Parallel loops that fall back to one thread while their threads share a CPU (C backend).

On a busy machine the OS scheduler may wake a worker thread on the CPU of the thread that woke
it; the two then take turns, and a loop split over them takes as long as on one thread plus
the hand-overs (and longer still when idle threads spin: each spins while the other waits for
the CPU). A parallel loop of a plan with `shared_cpu_backoff` therefore records the CPU each
thread starts its share on (`sched_getcpu`); when two threads shared one, the loop's next 1, 2,
4, ... calls (doubling while it happens again, at most `shared_cpu_backoff`) run on the calling
thread alone (`#pragma omp parallel if(0)`: a team of one, no worker woken), and the call after
them tries threads again. The state is two counters per loop, read and written with relaxed
atomics (calls from several threads at once only disturb the heuristic, never the results).
"""

from __future__ import annotations

from plaidc.backends.c import ast as c

# threads whose CPUs a team records (a larger team's further threads are not checked)
TEAM_CPUS = 64

RUNTIME = f"""extern int sched_getcpu(void);
extern int omp_get_thread_num(void);
extern int omp_get_num_threads(void);

typedef struct {{ int threads; int cpu[{TEAM_CPUS}]; }} plaidc_team;

/* 1 if the loop with this state runs on threads this call, 0 if on the calling thread */
static inline int plaidc_team_wanted(int *state) {{
  int left = __atomic_load_n(&state[0], __ATOMIC_RELAXED);
  if (left <= 0) return 1;
  __atomic_store_n(&state[0], left - 1, __ATOMIC_RELAXED);
  return 0;
}}

/* each thread of the team, as it starts: the CPU it runs on */
static inline void plaidc_team_mark(plaidc_team *team) {{
  int t = omp_get_thread_num();
  if (t == 0) team->threads = omp_get_num_threads();
  if (t < {TEAM_CPUS}) team->cpu[t] = sched_getcpu();
}}

/* after the loop: if two threads shared a CPU, run the next calls on one thread (1, 2, 4, ...
   calls, at most `backoff`); else threads from the next call on */
static void plaidc_team_check(int *state, const plaidc_team *team, int backoff) {{
  int n = team->threads < {TEAM_CPUS} ? team->threads : {TEAM_CPUS};
  int shared = 0;
  for (int i = 0; i < n && !shared; i++)
    for (int j = i + 1; j < n; j++)
      if (team->cpu[i] >= 0 && team->cpu[i] == team->cpu[j]) {{ shared = 1; break; }}
  int stretch = __atomic_load_n(&state[1], __ATOMIC_RELAXED);
  stretch = !shared ? 0 : stretch <= 0 ? 1 : stretch < backoff / 2 ? 2 * stretch : backoff;
  __atomic_store_n(&state[1], stretch, __ATOMIC_RELAXED);
  __atomic_store_n(&state[0], stretch, __ATOMIC_RELAXED);
}}"""


def parallel_loop(loop: c.For, threads: str, number: int, backoff: int) -> c.Stmt:
    """`loop` split over threads in contiguous chunks (`threads`: a `num_threads` clause or
    nothing), as a parallel region that records its team's CPUs and runs on one thread while
    they were shared (`number`: names the loop's own state; `backoff`: the plan's
    `shared_cpu_backoff`)."""
    state, team, wanted = (f"plaidc_{what}_{number}" for what in ("shared", "team", "threads"))
    mark = c.ExprStmt(c.CallExpr("plaidc_team_mark", (c.Ident(f"&{team}"),)))
    inner = c.For(
        loop.var,
        loop.init,
        loop.limit,
        loop.body,
        loop.step,
        loop.type,
        ("omp for schedule(static) nowait",),
    )
    check = c.If(
        c.Ident(wanted),
        (
            c.ExprStmt(
                c.CallExpr(
                    "plaidc_team_check",
                    (c.Ident(state), c.Ident(f"&{team}"), c.Literal(str(backoff))),
                )
            ),
        ),
    )
    return c.Compound(
        (
            c.Decl("int", state, array=2, static=True),
            c.Decl("plaidc_team", team),
            c.Decl("int", wanted, c.CallExpr("plaidc_team_wanted", (c.Ident(state),)), const=True),
            c.Pragma(f"omp parallel if({wanted}){threads}"),
            c.Compound((mark, inner)),
            check,
        )
    )
