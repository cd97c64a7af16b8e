import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { docFiles, fencedBlocks } from "../doc-blocks";
import { repoRoot } from "../install-script";

// The jest test files the docs show (`<!-- test: <name> -->`), type-checked and run here as they
// are written, so a reader copies a test that compiles and passes. They are written inside the
// repository, where they import the package by its name as a user's tests do.

const scratch = path.join(repoRoot, ".pulumi-e2e", "doc-tests");
const blocks = docFiles()
  .flatMap(fencedBlocks)
  .flatMap((block) =>
    block.marker?.kind === "test"
      ? [{ name: block.marker.name, where: `${block.file}:${block.line}`, code: block.code }]
      : [],
  );

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  types: ["node", "jest"],
};

rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
const sources = blocks.map((block) => {
  const file = path.join(scratch, `${block.name}.test.ts`);
  writeFileSync(file, block.code);
  return file;
});
const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(sources, COMPILER_OPTIONS));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the docs show the emulator's test file, and every test file type-checks", () => {
  expect(blocks.map((block) => block.name)).toContain("emulator");
  expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
});

for (const [index, block] of blocks.entries()) {
  describe(`${block.name} (${block.where})`, () => {
    const compiled = sources[index].replace(/\.ts$/, ".js");
    writeFileSync(
      compiled,
      ts.transpileModule(block.code, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      }).outputText,
    );
    // Loading the file registers its hooks and tests in this describe block.
    require(compiled);
  });
}
