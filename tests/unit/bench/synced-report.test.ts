import { memoryTable, type PathRun, timingsTable } from "../../../bench/lib/synced-report";

const command = (wallMs: number, cpuMs: number, uploads: number) => ({
  wallMs,
  cpuMs,
  benchCpuMs: 0,
  load: 0.5,
  uploads,
});
const folder = (files: number, upMs: number, changeOneMs: number, previewMs: number) => ({
  files,
  up: command(upMs, 9_000, files),
  changeOne: command(changeOneMs, 6_000, 1),
  preview: command(previewMs, 4_000, 0),
});
const plain = { files: 2000, wallMs: 27_000, load: 0.9, uploads: 2000 };

test("each command is shown beside its goal, met or missed by how much, and beside its 3-file floor", () => {
  const runs: PathRun[] = [
    { path: "typescript", timed: folder(2000, 32_100, 5_300, 3_600), floor: folder(3, 3_000, 3_600, 2_900) },
    { path: "yaml", timed: folder(2000, 29_000, 2_400, 1_900), floor: folder(3, 1_500, 1_600, 1_200) },
  ];
  const lines = timingsTable(plain, runs).split("\n");
  const line = (start: string, after = 0) => lines.slice(after).find((text) => text.trimStart().startsWith(start));
  const yamlAt = lines.findIndex((text) => text.startsWith("YAML program, native plugin"));
  expect(line("plain undici script, 2000 files")).toMatch(/27\.0\s+-\s+0\.9\s+2000/);
  expect(line("first pulumi up, 2000 files")).toMatch(/< 1\.3x plain: 1\.19x, met\s+3\.0\s+9\.0\s+0\.5\s+0\.0$/);
  expect(line("pulumi up after changing one file")).toMatch(
    /5\.3\s+6\.0\s+0\.5\s+1\s+< 5\.0 s: missed by 0\.3 s\s+3\.6/,
  );
  expect(line("pulumi preview, unchanged")).toMatch(/< 3\.0 s: missed by 0\.6 s/);
  expect(line("first pulumi up, 2000 files", yamlAt)).toMatch(/1\.07x, met/);
  expect(line("pulumi up after changing one file", yamlAt)).toMatch(/< 5\.0 s: met\s+1\.6/);
  expect(line("pulumi preview, unchanged", yamlAt)).toMatch(/< 3\.0 s: met\s+1\.2/);
});

test("a first up slower than 1.3 times the plain script misses its goal", () => {
  const runs: PathRun[] = [
    { path: "yaml", timed: folder(2000, 36_000, 2_400, 1_900), floor: folder(3, 1_500, 1_600, 1_200) },
  ];
  expect(timingsTable(plain, runs)).toMatch(/1\.33x, missed/);
});

test("memory is listed per size, path and process", () => {
  const table = memoryTable([
    { files: 500, path: "yaml", peaks: [{ role: "native plugin", processes: 1, peakMiB: 180 }] },
    { files: 500, path: "typescript", peaks: [{ role: "dynamic provider", processes: 1, peakMiB: 250 }] },
  ]);
  expect(table.split("\n").slice(2)).toEqual([
    expect.stringMatching(/^500\s+yaml\s+native plugin\s+1\s+180$/),
    expect.stringMatching(/^500\s+typescript\s+dynamic provider\s+1\s+250$/),
  ]);
});
