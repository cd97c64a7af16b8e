import { readdirSync, readFileSync } from "node:fs";

/**
 * Peak resident memory of the processes the engine starts, read from /proc while they run: each
 * process's own high-water mark (VmHWM), sampled often enough to see every process before it
 * exits. Roles come from the command line.
 */

export type Role = "dynamic provider" | "program" | "engine (pulumi CLI and Go plugins)";

export interface RolePeak {
  role: Role;
  processes: number;
  /** The largest peak of one process of this role, MiB. */
  peakMiB: number;
}

/** VmHWM only grows, so a slow rate misses nothing of a process that outlives a sample or two. */
const SAMPLE_EVERY_MS = 250;

function roleOf(cmdline: string): Role | undefined {
  if (cmdline.includes("dynamic-provider")) return "dynamic provider";
  if (/@pulumi[/\\]pulumi[/\\]cmd[/\\]run/.test(cmdline)) return "program";
  if (/(^|\/)pulumi(-language-nodejs)?\0/.test(cmdline)) return "engine (pulumi CLI and Go plugins)";
  return undefined;
}

function parentOf(pid: string): string | undefined {
  try {
    // The command name in parentheses may hold spaces: the fields after its closing one are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
  } catch {
    return undefined;
  }
}

function descendantsOf(root: string): string[] {
  const children = new Map<string, string[]>();
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    const parent = parentOf(pid);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: string[] = [];
  const queue = [root];
  while (queue.length > 0) for (const child of children.get(queue.shift()!) ?? []) found.push(child), queue.push(child);
  return found;
}

function highWaterKiB(pid: string): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Samples this process's descendants until stopped; returns the peak per role. */
export function watchPeakRss(): { stop(): RolePeak[] } {
  const seen = new Map<string, { role: Role; kib: number }>();
  const sample = () => {
    for (const pid of descendantsOf(String(process.pid))) {
      let entry = seen.get(pid);
      if (!entry) {
        let cmdline = "";
        try {
          cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        } catch {
          continue;
        }
        const role = roleOf(cmdline);
        if (!role) continue;
        entry = { role, kib: 0 };
        seen.set(pid, entry);
      }
      entry.kib = Math.max(entry.kib, highWaterKiB(pid) ?? 0);
    }
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      const roles = new Map<Role, RolePeak>();
      for (const { role, kib } of seen.values()) {
        const peak = roles.get(role) ?? { role, processes: 0, peakMiB: 0 };
        peak.processes += 1;
        peak.peakMiB = Math.max(peak.peakMiB, Math.round(kib / 1024));
        roles.set(role, peak);
      }
      return [...roles.values()];
    },
  };
}

/** One peak per role over several watches (the processes of each operation). */
export function mergePeaks(watches: RolePeak[][]): RolePeak[] {
  const roles = new Map<Role, RolePeak>();
  for (const peak of watches.flat()) {
    const merged = roles.get(peak.role) ?? { role: peak.role, processes: 0, peakMiB: 0 };
    merged.processes += peak.processes;
    merged.peakMiB = Math.max(merged.peakMiB, peak.peakMiB);
    roles.set(peak.role, merged);
  }
  return [...roles.values()];
}
