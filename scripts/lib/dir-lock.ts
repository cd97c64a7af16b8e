import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/**
 * Takes the lock `lock` (a directory: mkdir is atomic), waiting while another live process holds
 * it; one left by a process that ended is taken over. Resolves to the function that releases it.
 */
export async function takeDirLock(lock: string): Promise<() => void> {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    if (!holderAlive(lock)) rmSync(lock, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** False once the process that took the lock has ended (a test run that was killed). */
function holderAlive(lock: string): boolean {
  const pidFile = path.join(lock, "pid");
  // Taken a moment ago, its pid not written yet.
  if (!existsSync(pidFile)) return true;
  try {
    process.kill(Number(readFileSync(pidFile, "utf8")), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
