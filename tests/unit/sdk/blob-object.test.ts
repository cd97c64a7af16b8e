import { join, sep } from "node:path";
import { pathInside } from "../../../sdk/nodejs/hooks/blob-object";

describe("BlobObject source paths inside the project", () => {
  const project = join(sep, "work", "site");

  test("a file below the project is given by its relative path", () => {
    expect(pathInside(project, join(project, "index.html"))).toBe("index.html");
    expect(pathInside(project, join(project, "css", "site.css"))).toBe(join("css", "site.css"));
  });

  test("a file whose name starts with two dots is inside", () => {
    expect(pathInside(project, join(project, "..notes.txt"))).toBe("..notes.txt");
    expect(pathInside(project, join(project, "..", "site", "..draft", "a.txt"))).toBe(join("..draft", "a.txt"));
  });

  test("the parent directory and anything beside the project are outside", () => {
    expect(pathInside(project, join(sep, "work"))).toBeUndefined();
    expect(pathInside(project, join(sep, "work", "other", "a.txt"))).toBeUndefined();
    expect(pathInside(project, join(sep, "work", "site-old", "a.txt"))).toBeUndefined();
  });
});
