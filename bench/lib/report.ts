import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../tests/e2e/harness/engine";

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? "").length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export interface Machine {
  nproc: number;
  cpu: string;
  ramGiB: number;
  node: string;
  pulumi: string;
  /** 1-minute load average when the run started: above nproc, others were using the machine. */
  loadAtStart: number;
}

export function machine(): Machine {
  return {
    nproc: Number(execFileSync("nproc", { encoding: "utf8" }).trim()),
    cpu: cpus()[0]?.model ?? "unknown",
    ramGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    pulumi: JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).config.pulumiVersion,
    loadAtStart: Number(loadavg()[0]!.toFixed(2)),
  };
}

export function describeMachine(m: Machine): string {
  return `${m.nproc} CPUs (${m.cpu}), ${m.ramGiB} GiB RAM, Node ${m.node}, Pulumi ${m.pulumi}, load ${m.loadAtStart} at start`;
}

/** Writes bench/results/<name>.json (git-ignored; bench/README.md carries the latest tables). */
export function writeResults(name: string, results: unknown): string {
  const file = path.join(repoRoot, "bench", "results", `${name}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return path.relative(repoRoot, file);
}

/** The sizes to run: BENCH_N=10,100 (or --quick, which means 10,100) overrides the default. */
export function sizes(defaults: number[]): number[] {
  const fromEnv = process.env.BENCH_N?.split(",").map((n) => Number(n.trim()));
  if (fromEnv?.every((n) => Number.isInteger(n) && n > 0)) return fromEnv;
  return process.argv.includes("--quick") ? defaults.filter((n) => n <= 100) : defaults;
}
