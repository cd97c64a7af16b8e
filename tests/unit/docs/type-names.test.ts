import { docFiles, readDoc } from "../../doc-blocks";

// Pages speak of each resource as every language sees it: its type token (squarecloud:index:<Kind>,
// what YAML, Python, Go and `pulumi import` name). The type the engine gives the TypeScript SDK's
// dynamic resources is named only where the text is about TypeScript.

const DYNAMIC_TYPE = "pulumi-nodejs:dynamic/squarecloud:";

/** Each paragraph (or fenced block) of a page with the nearest heading above it. */
function paragraphs(file: string): { heading: string; text: string }[] {
  const found: { heading: string; text: string }[] = [];
  let heading = "";
  for (const text of readDoc(file).split(/\n\s*\n/)) {
    const headings = text.split("\n").filter((line) => /^#+ /.test(line));
    if (headings.length > 0) heading = headings[headings.length - 1];
    found.push({ heading, text });
  }
  return found;
}

test("each resource page names its type token before its example", () => {
  const pages = docFiles().filter((file) => file.startsWith("docs/resources/"));
  expect(pages.length).toBeGreaterThan(0);
  for (const file of pages) {
    const kind = readDoc(file).match(/^# (\w+)/)![1];
    const intro = readDoc(file).split("\n## ")[0];
    expect({ file, names: intro.includes(`\`squarecloud:index:${kind}\``) }).toEqual({ file, names: true });
  }
});

test("the dynamic type is named only in what is about TypeScript", () => {
  const elsewhere = docFiles().flatMap((file) =>
    paragraphs(file)
      .filter(
        ({ heading, text }) => text.includes(DYNAMIC_TYPE) && !/TypeScript/.test(heading) && !/TypeScript/.test(text),
      )
      .map(({ text }) => `${file}: ${text.slice(0, 120)}`),
  );
  expect(elsewhere).toEqual([]);
});
