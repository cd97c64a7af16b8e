import { readFileSync } from "node:fs";
import { descendantsOf } from "../../tests/process-tree";
import { PLUGINS_DIR } from "./stack";

/**
 * Peak resident memory of the processes the engine starts, read from /proc while they run: each
 * process's own high-water mark (VmHWM), sampled often enough to see every process before it
 * exits. Roles come from the command line.
 */

export type Role = "dynamic provider" | "native plugin" | "program" | "engine (pulumi CLI and Go plugins)";

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
  if (cmdline.includes(PLUGINS_DIR)) return "native plugin";
  if (/@pulumi[/\\]pulumi[/\\]cmd[/\\]run/.test(cmdline)) return "program";
  // The language hosts are Go plugins: a YAML program runs inside its host.
  if (/(^|\/)pulumi(-language-(nodejs|yaml))?\0/.test(cmdline)) return "engine (pulumi CLI and Go plugins)";
  return undefined;
}

function highWaterKiB(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Samples this process's descendants until stopped; returns the peak per role. */
export function watchPeakRss(): { stop(): RolePeak[] } {
  const seen = new Map<number, { role: Role; kib: number }>();
  const sample = () => {
    for (const pid of descendantsOf(process.pid)) {
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
