/** Memory and CPU of the processes a bench measures, from /proc, and of the PostgreSQL backends serving its database. */
import { readFileSync } from "node:fs";
import type pg from "pg";

export function memoryMiB(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** CPU seconds a process has used (user + system), from /proc; 0 once it is gone. */
export function cpuSeconds(pid: number) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat(5); the split above starts at field 3.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Write system calls a process has made (write, writev, sendmsg: its sockets' and its log's), from
 * /proc; 0 once it is gone. Each wakes whoever reads the other end: on a loaded machine, a share of
 * a turn's time that a CPU figure hides.
 */
export function writeCalls(pid: number) {
  try {
    return Number(/syscw:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export interface FunctionTimes {
  calls: number;
  /** Milliseconds in the function, without and with the functions it called. */
  selfMs: number;
  totalMs: number;
}

/**
 * The CPU seconds of each PostgreSQL backend serving `observer`'s database, by pid: the database's
 * share of a turn. Pools open and close connections, so a measure compares backend by backend.
 */
export function observeDatabase(observer: pg.Client) {
  async function backendsCpu() {
    const { rows } = await observer.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database()");
    return new Map(rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
  }
  return {
    backendsCpu,
    /** CPU the backends used since `before`; a backend opened meanwhile counts from its start. */
    async cpuSince(before: Map<number, number>) {
      let total = 0;
      for (const [pid, seconds] of await backendsCpu()) total += seconds - (before.get(pid) ?? 0);
      return total;
    },
    /** Each function's calls and times so far, once the backends have reported them. */
    async settledFunctionTimes() {
      // A backend reports its functions' times when it goes idle, at most once a second.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const { rows } = await observer.query<{ funcname: string; calls: string; self_time: number; total_time: number }>(
        "select funcname, calls, self_time, total_time from pg_stat_user_functions",
      );
      return new Map<string, FunctionTimes>(
        rows.map((row) => [row.funcname, { calls: Number(row.calls), selfMs: row.self_time, totalMs: row.total_time }]),
      );
    },
  };
}
