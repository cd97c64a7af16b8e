import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { reproducibleTarGz } from "../../../scripts/release/reproducible";
import { zipArchive } from "../../../scripts/release/zip";

const EPOCH = Date.UTC(2026, 10, 24, 20, 3, 18) / 1000;

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "archives-"));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** A tar.gz of a launcher and a module written at `mtime`, packed by tar as a build does. */
function packAt(name: string, mtime: number): string {
  const dir = path.join(scratch, name);
  mkdirSync(path.join(dir, "lib"), { recursive: true });
  writeFileSync(path.join(dir, "run"), "#!/bin/sh\n");
  chmodSync(path.join(dir, "run"), 0o755);
  writeFileSync(path.join(dir, "lib", "main.js"), "console.log(1)\n");
  for (const file of ["run", "lib/main.js", "lib", "."]) utimesSync(path.join(dir, file), mtime, mtime);
  const archive = path.join(scratch, `${name}.tar.gz`);
  execFileSync("tar", ["-czf", archive, "-C", dir, "run", "lib"]);
  return archive;
}

describe("a reproducible tar.gz", () => {
  test("of the same files packed at different times has the same bytes, entries sorted, times at the epoch, owners root", () => {
    const [a, b] = [packAt("a", 1_000_000_000), packAt("b", 1_700_000_000)];
    reproducibleTarGz(a, path.join(scratch, "a-out.tar.gz"), EPOCH);
    reproducibleTarGz(b, path.join(scratch, "b-out.tar.gz"), EPOCH);
    expect(
      readFileSync(path.join(scratch, "a-out.tar.gz")).equals(readFileSync(path.join(scratch, "b-out.tar.gz"))),
    ).toBe(true);
    const listing = execFileSync(
      "tar",
      ["-tvzf", path.join(scratch, "a-out.tar.gz"), "--numeric-owner", "--full-time"],
      { encoding: "utf8", env: { ...process.env, TZ: "UTC" } },
    );
    expect(
      listing
        .trim()
        .split("\n")
        .map((line) => line.split(/\s+/).filter((_, i) => i !== 2)),
    ).toEqual([
      ["drwxr-xr-x", "0/0", "2026-11-24", "20:03:18", "lib/"],
      ["-rw-r--r--", "0/0", "2026-11-24", "20:03:18", "lib/main.js"],
      ["-rwxr-xr-x", "0/0", "2026-11-24", "20:03:18", "run"],
    ]);
    expect(
      execFileSync("tar", ["-xzOf", path.join(scratch, "a-out.tar.gz"), "lib/main.js"], { encoding: "utf8" }),
    ).toBe("console.log(1)\n");
  });
});

describe("a zip", () => {
  test("holds its entries, in order, with their bytes, and is the same for the same entries", () => {
    const entries = [
      { name: "m@v1.0.0/go.mod", data: Buffer.from("module m\n") },
      { name: "m@v1.0.0/pkg/a.go", data: Buffer.from("package pkg\n".repeat(50)) },
    ];
    const zip = zipArchive(entries, EPOCH);
    expect(zipArchive(entries, EPOCH).equals(zip)).toBe(true);
    const file = path.join(scratch, "m.zip");
    writeFileSync(file, zip);
    // Python's zipfile, an independent reader, checks every CRC and reads the names, dates and contents.
    const script =
      "import json,sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(json.dumps([[i.filename, list(i.date_time), z.read(i).decode()] for i in z.infolist()]))";
    const read = JSON.parse(execFileSync("python3", ["-c", script, file], { encoding: "utf8" }));
    expect(read).toEqual(entries.map((entry) => [entry.name, [2026, 11, 24, 20, 3, 18], entry.data.toString()]));
  });
});
