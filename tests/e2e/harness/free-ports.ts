import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Ports from here up to the system's ephemeral range are left to servers given a port by number. */
const FIRST_PORT = 20_000;

/**
 * `count` ports free now, for emulators started later on ports given to them (their fixed ones
 * may be in use). Taken below the ephemeral range, which every listen(0) and outgoing connection
 * of the other tests draws from, so none of those can take one before the emulator starts.
 */
export async function freePorts(count: number): Promise<number[]> {
  const below = ephemeralStart();
  const ports: number[] = [];
  while (ports.length < count) {
    const port = FIRST_PORT + Math.floor(Math.random() * (below - FIRST_PORT));
    if (!ports.includes(port) && (await canListen(port))) ports.push(port);
  }
  return ports;
}

/** Where Linux's ephemeral range starts (32768 by default, and where it cannot be read). */
function ephemeralStart(): number {
  try {
    const start = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (start > FIRST_PORT) return start;
  } catch {
    // Not Linux: macOS and Windows start theirs at 49152.
  }
  return 32_768;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
