import type { ChildProcess } from "node:child_process";

/** Processes this test process started (servers, commands) that still run. */
const running = new Set<ChildProcess>();

/** Kills `child` when its test file ends, if it still runs then (killLeftoverProcesses). */
export function killWithTheTestFile(child: ChildProcess) {
  running.add(child);
  child.once("exit", () => running.delete(child));
}

/**
 * The setup file's last hook: a test that times out never reaches its own stop(), and its server
 * or command would outlive the run, holding a port and a database.
 */
export function killLeftoverProcesses() {
  for (const child of running) child.kill("SIGKILL");
}
