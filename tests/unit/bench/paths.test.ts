import { parsePaths } from "../../../bench/lib/paths";

test("a list of paths is taken in the bench's order, whatever order it is given in", () => {
  expect(parsePaths("dynamic, native")).toEqual(["native", "dynamic"]);
  expect(parsePaths("nativeFloor,native,dynamicFloor,dynamic")).toEqual([
    "native",
    "nativeFloor",
    "dynamic",
    "dynamicFloor",
  ]);
});

test("a path the bench does not know is refused with the ones it knows", () => {
  expect(() => parsePaths("native,yaml")).toThrow(
    "--paths takes a list of native, nativeFloor, dynamic, dynamicFloor; got native,yaml",
  );
  expect(() => parsePaths("")).toThrow("--paths takes a list of");
});

test("a bench with paths of its own takes its list from them", () => {
  const synced = ["typescript", "yaml"] as const;
  expect(parsePaths("yaml", synced)).toEqual(["yaml"]);
  expect(() => parsePaths("native", synced)).toThrow("--paths takes a list of typescript, yaml; got native");
});
