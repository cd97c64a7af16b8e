import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { timed } from "./stack";

/**
 * What one operation cost: its wall time, and CPU time, which a loaded machine stretches far less
 * than wall time (a process waiting for a core uses none).
 */
export interface Cost {
  wallMs: number;
  /** CPU of the processes the operation started (the CLI, language host, program, providers). */
  cpuMs: number;
  /** CPU of this process meanwhile: the in-process emulator answering, and the Automation API. */
  benchCpuMs: number;
}

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/**
 * CPU time of this process's children that have ended, with that of the descendants each of them
 * waited for (Linux: cutime + cstime of /proc/self/stat). The CLI waits for its language host and
 * plugins, and they for theirs, so an operation's whole process tree is counted once it returns.
 */
function endedChildrenCpuMs(): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  const [cutime, cstime] = [Number(fields[13]), Number(fields[14])];
  return ((cutime + cstime) * 1000) / ticksPerSecond;
}

export async function measure(run: () => Promise<unknown>): Promise<Cost> {
  const [children, own] = [endedChildrenCpuMs(), process.cpuUsage()];
  const wallMs = await timed(run);
  const ownUsed = process.cpuUsage(own);
  return { wallMs, cpuMs: endedChildrenCpuMs() - children, benchCpuMs: (ownUsed.user + ownUsed.system) / 1000 };
}
