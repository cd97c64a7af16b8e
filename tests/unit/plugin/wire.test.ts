import { secret, unwrapSecrets, wrapSecrets } from "../../../provider/plugin/wire";

test("secrets are unwrapped at any depth, and the top-level properties that held one are named", () => {
  const files = { "a.html": "1f", "b.css": "2e" };
  const { plain, secret: names } = unwrapSecrets({
    name: "site",
    files,
    password: secret("p"),
    nested: { list: [1, secret({ key: secret("k") })], plain: "x" },
  });
  expect(plain).toEqual({ name: "site", files, password: "p", nested: { list: [1, { key: "k" }], plain: "x" } });
  expect([...names].sort()).toEqual(["nested", "password"]);
});

test("what wrapSecrets wraps, unwrapSecrets gives back with the same names", () => {
  const props = { name: "db", password: "p", cpu: 1 };
  const { plain, secret: names } = unwrapSecrets(wrapSecrets(props, ["password", "absent"]));
  expect(plain).toEqual(props);
  expect([...names]).toEqual(["password"]);
});
