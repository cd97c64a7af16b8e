import { parsePaths } from "../../../bench/lib/paths";
import { SYNCED_PATHS } from "../../../bench/lib/synced-report";

test("a list of paths is taken in the bench's order, whatever order it is given in", () => {
  expect(parsePaths("dynamic, native")).toEqual(["native", "dynamic"]);
  expect(parsePaths("nativeFloor,archiveFloor,native,dynamicFloor,nativeArchive,dynamic")).toEqual([
    "native",
    "nativeFloor",
    "nativeArchive",
    "archiveFloor",
    "dynamic",
    "dynamicFloor",
  ]);
});

test("a path the bench does not know is refused with the ones it knows", () => {
  expect(() => parsePaths("native,yaml")).toThrow(
    "--paths takes a list of native, nativeFloor, nativeArchive, archiveFloor, dynamic, dynamicFloor; got native,yaml",
  );
  expect(() => parsePaths("")).toThrow("--paths takes a list of");
});

test("a bench with paths of its own takes its list from them", () => {
  expect(parsePaths("yamlArchive,yaml", SYNCED_PATHS)).toEqual(["yaml", "yamlArchive"]);
  expect(() => parsePaths("native", SYNCED_PATHS)).toThrow(
    "--paths takes a list of typescript, yaml, yamlArchive; got native",
  );
});
