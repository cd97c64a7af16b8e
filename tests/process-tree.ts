import { readdirSync, readFileSync } from "node:fs";

/**
 * Every process below `pid`, from /proc (Linux): children, their children, and so on. The engine
 * starts its plugins in process groups of their own, so a group cannot stand in for this.
 */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // The command name (in parentheses) may hold spaces: the fields after its ")" are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended while the table was read.
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf)
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
  };
  walk(pid);
  return found;
}
