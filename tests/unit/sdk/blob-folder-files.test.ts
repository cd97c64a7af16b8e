import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { objectNameFor, objectNames } from "../../../provider/components/blob-folder-files";

describe("BlobFolder object names", () => {
  test("relative paths keep only a-z, A-Z, 0-9 and _", () => {
    expect(objectNameFor("css/site.min.css")).toBe("css_site_min_css");
    expect(objectNameFor("img/logo-dark.png")).toBe("img_logo_dark_png");
  });

  test("short names are padded and long ones cut with a hash of the path, the same on every run", () => {
    expect(objectNameFor("a")).toBe("a__");
    const long = "assets/images/backgrounds/very-long-file-name.webp";
    const name = objectNameFor(long);
    expect(name).toHaveLength(32);
    expect(name).toMatch(/^assets_images_backgroun_[0-9a-f]{8}$/);
    expect(objectNameFor(long)).toBe(name);
    expect(objectNameFor(long.replace("very", "vary"))).not.toBe(name);
  });

  test("every file below the directory, sorted; two paths making one name are refused naming both", () => {
    const dir = mkdtempSync(join(tmpdir(), "blob-folder-"));
    try {
      mkdirSync(join(dir, "css"));
      writeFileSync(join(dir, "css", "site.css"), "x");
      writeFileSync(join(dir, "index.html"), "x");
      expect([...objectNames(dir)]).toEqual([
        ["css/site.css", "css_site_css"],
        ["index.html", "index_html"],
      ]);
      writeFileSync(join(dir, "css_site.css"), "x");
      expect(() => objectNames(dir)).toThrow(
        'the files "css/site.css" and "css_site.css" both make the object name "css_site_css"',
      );
      expect(() => objectNames(join(dir, "nope"))).toThrow(/directory must name an existing directory .*nope"$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
