import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { runInThisContext } from "node:vm";
import { mainBundle, pluginFiles } from "../../../scripts/plugin-bundle";

// The plugin's JavaScript is ASCII: V8 then holds its source one byte a character, which a
// single character outside ASCII, even in a comment, would double.

const nonAscii = (data: Buffer) => data.findIndex((byte) => byte > 0x7f);

test("the plugin's bundle and the main.js that runs it hold no byte outside ASCII", () => {
  const files = pluginFiles(path.join(__dirname, "..", "..", "..", "provider", "plugin", "main.js"));
  expect(files.map((file) => [file.name, nonAscii(file.data)])).toEqual([
    ["main.js", -1],
    ["plugin.js", -1],
  ]);
});

test("text outside ASCII in strings, templates, patterns and comments comes out of the bundle as it went in", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "squarecloud-bundle-"));
  try {
    const entry = path.join(scratch, "entry.js");
    writeFileSync(
      entry,
      [
        "// the response’s type: “invàlid” 😀",
        'const text = "invàlid ’ 😀";',
        'module.exports = { text, template: `${text} ü`, matches: /^ü+$/u.test("üü"), comment: () => 1 /* ’ */ };',
      ].join("\n"),
    );
    const [bundle] = mainBundle(entry);
    expect(nonAscii(bundle!.data)).toBe(-1);
    const loaded = { exports: {} as Record<string, unknown> };
    runInThisContext(`(function (module, exports, require) {${bundle!.data.toString("utf8")}\n})`)(
      loaded,
      loaded.exports,
      require,
    );
    expect(loaded.exports).toMatchObject({ text: "invàlid ’ 😀", template: "invàlid ’ 😀 ü", matches: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
