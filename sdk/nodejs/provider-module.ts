/** The calls the engine makes of a dynamic provider besides `configure`, and their arguments. */
const CALLS = {
  check: "olds, news",
  diff: "id, olds, news",
  create: "inputs",
  read: "id, props",
  update: "id, olds, news",
  delete: "id, props",
};

/**
 * The provider each resource of `kind` carries in its state (`__provider`, CONTRIBUTING "Layout"):
 * a module whose provider holds only the kind, every call loading `pulumi-squarecloud/provider` by
 * name. Written here rather than by `pulumi.dynamic.Resource`'s closure serializer, which costs each
 * program run about 0.3 s of CPU (it loads every Node built-in and parses the code with TypeScript).
 */
export function providerModule(kind: string): string {
  const provider = 'require("pulumi-squarecloud/provider")';
  return [
    "exports.handler = () => ({",
    `  configure: (req) => ${provider}.configure(req),`,
    ...Object.entries(CALLS).map(
      ([call, args]) => `  ${call}: (${args}) => ${provider}.handlers[${JSON.stringify(kind)}].${call}(${args}),`,
    ),
    "});",
    "",
  ].join("\n");
}
