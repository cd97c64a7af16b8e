import { typeToken } from "../tokens";
import { ConfigError, resolveConfig, SETTINGS } from "../config";
import type { ResourceHandler } from "../handler";
import { handlers } from "../index";
import { kinds } from "../kinds";
import type { AnyKind } from "../kinds/declaration";
import { packageVersion } from "../client/version";
import { configure } from "../runtime";
import { emptyproto, plugproto, type Props, provproto, struct, unwrapSecrets, wrapSecrets } from "./wire";
import { errorStatus } from "./errors";
import { asCallOn } from "./engine-log";
import { startUpdate } from "./update";
import { importedInputs, refuseUnlessImportable } from "./import";
// Imported, not read from disk: the build copies it beside the compiled plugin.
import schema from "./schema.json";

/**
 * The same handlers as the dynamic provider's; what the wire needs and they must not know (secrets
 * wrapped as the declaration says, config as variables) happens here.
 */

type Call = { request: any };
type Callback = (err: any, value?: unknown, metadata?: any) => void;

const byToken = new Map<string, AnyKind>(kinds.map((kind) => [typeToken(kind.name), kind]));

function kindOf(token: string): AnyKind {
  const kind = byToken.get(token);
  if (!kind) throw new Error(`unknown resource type ${token}`);
  return kind;
}

/** The kind of the resource a call is about, found by the type in its URN, and its handler. */
function targetOf(request: { getUrn(): string }): { kind: AnyKind; handler: ResourceHandler } {
  const kind = kindOf(tokenOf(request.getUrn()));
  return { kind, handler: handlers[kind.kind] };
}

/** A property map of a request as the handlers take it: plain values, secrets unwrapped. */
function plain(props: { toJavaScript(): Props } | undefined): Props {
  return unwrapSecrets(props?.toJavaScript() ?? {}).plain;
}

/** A child's type is qualified by its parents' (`...BlobFolder$squarecloud:index:BlobObject`): its own is last. */
function tokenOf(urn: string): string {
  return urn.split("::")[2].split("$").pop() as string;
}

/** What state may hold in plaintext never does: the kind's secret outputs and secret inputs leave wrapped. */
function sealed(kind: AnyKind, props: Props): unknown {
  return struct(wrapSecrets(props, [...kind.secretOutputs, ...kind.secretInputs]));
}

/** Provider settings given as inputs of an explicit provider, or as the stack's config variables. */
function settingsOf(args: Props, variables: Map<string, string>): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [name, setting] of Object.entries(SETTINGS)) {
    const given = args[name] ?? variables.get(setting.key.replace(":", ":config:"));
    values[setting.key] = given === undefined ? undefined : String(given);
  }
  return values;
}

function handled(work: (call: Call) => Promise<unknown>) {
  return (call: Call, callback: Callback) => {
    // Configure, GetSchema and the like are about no resource.
    const urn: string = call.request.getUrn?.() ?? "";
    asCallOn(urn, () => work(call)).then(
      (value) => callback(null, value),
      (err) => {
        const status = errorStatus(err, (properties) => {
          const kind = byToken.get(tokenOf(urn));
          return kind ? sealed(kind, properties) : struct(properties);
        });
        callback(status, null, status.metadata);
      },
    );
  };
}

export const resourceProviderService = {
  getPluginInfo: handled(async () => {
    const info = new plugproto.PluginInfo();
    info.setVersion(packageVersion());
    return info;
  }),

  getSchema: handled(async () => {
    const response = new provproto.GetSchemaResponse();
    response.setSchema(JSON.stringify(schema));
    return response;
  }),

  checkConfig: handled(async ({ request }) => {
    const news = unwrapSecrets(request.getNews().toJavaScript()).plain;
    const response = new provproto.CheckResponse();
    response.setInputs(request.getNews());
    try {
      resolveConfig(settingsOf(news, new Map()));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      const failure = new provproto.CheckFailure();
      failure.setProperty("");
      failure.setReason(err.message);
      response.setFailuresList([failure]);
    }
    return response;
  }),

  // A new key or URL changes where resources are read, never the resources: nothing is replaced.
  diffConfig: handled(async ({ request }) => {
    const response = new provproto.DiffResponse();
    const changed =
      JSON.stringify(request.getOlds().toJavaScript()) !== JSON.stringify(request.getNews().toJavaScript());
    response.setChanges(
      changed ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
    );
    return response;
  }),

  configure: handled(async ({ request }) => {
    const args = unwrapSecrets(request.getArgs()?.toJavaScript() ?? {}).plain;
    const values = settingsOf(args, new Map(request.getVariablesMap().toObject()));
    await configure({ config: { get: (key: string) => values[key] } } as never);
    const response = new provproto.ConfigureResponse();
    response.setAcceptsecrets(true);
    // The handlers' create and update act on the service: the engine must not call them at preview.
    response.setSupportspreview(false);
    return response;
  }),

  check: handled(async ({ request }) => {
    const kind = kindOf(request.getType() || tokenOf(request.getUrn()));
    const received: Props = request.getNews().toJavaScript();
    const olds = unwrapSecrets(request.getOlds()?.toJavaScript() ?? {}).plain;
    const news = unwrapSecrets(received);
    const result = await handlers[kind.kind].check(olds, news.plain);
    const response = new provproto.CheckResponse();
    // Secret where they came secret and where the kind declares them so (an invite code given in plain).
    const added = Object.fromEntries(Object.entries(result.inputs ?? {}).filter(([name]) => !(name in received)));
    response.setInputs(struct(wrapSecrets({ ...news.plain, ...added }, [...news.secret, ...kind.secretInputs])));
    response.setFailuresList(
      (result.failures ?? []).map((f) => {
        const failure = new provproto.CheckFailure();
        failure.setProperty(f.property);
        failure.setReason(f.reason);
        return failure;
      }),
    );
    return response;
  }),

  diff: handled(async ({ request }) => {
    const result = await targetOf(request).handler.diff(
      request.getId(),
      plain(request.getOlds()),
      plain(request.getNews()),
    );
    const response = new provproto.DiffResponse();
    const { DIFF_SOME, DIFF_NONE, DIFF_UNKNOWN } = provproto.DiffResponse.DiffChanges;
    response.setChanges(result.changes === true ? DIFF_SOME : result.changes === false ? DIFF_NONE : DIFF_UNKNOWN);
    response.setReplacesList(result.replaces ?? []);
    response.setDeletebeforereplace(result.deleteBeforeReplace ?? false);
    return response;
  }),

  create: handled(async ({ request }) => {
    const { kind, handler } = targetOf(request);
    const result = await handler.create(plain(request.getProperties()));
    const response = new provproto.CreateResponse();
    response.setId(result.id);
    response.setProperties(sealed(kind, result.outs ?? {}));
    return response;
  }),

  read: handled(async ({ request }) => {
    const { kind, handler } = targetOf(request);
    const props = plain(request.getProperties());
    // An import reads an id alone and needs the declared inputs found among what was read.
    const importing = Object.keys(props).length === 0;
    if (importing) refuseUnlessImportable(kind, request.getId());
    const result = await handler.read(request.getId(), props);
    const response = new provproto.ReadResponse();
    response.setId(result.id ?? "");
    response.setProperties(sealed(kind, result.props ?? {}));
    if (importing && result.id) response.setInputs(struct(importedInputs(kind, result.props ?? {})));
    else if (request.getInputs()) response.setInputs(request.getInputs());
    return response;
  }),

  update: handled(async ({ request }) => {
    const { kind, handler } = targetOf(request);
    const result = await handler.update(request.getId(), plain(request.getOlds()), plain(request.getNews()));
    const response = new provproto.UpdateResponse();
    response.setProperties(sealed(kind, result.outs ?? {}));
    return response;
  }),

  delete: handled(async ({ request }) => {
    await targetOf(request).handler.delete(request.getId(), plain(request.getProperties()));
    return new emptyproto.Empty();
  }),

  // Loaded at the first invoke: the data sources' schemas take a tenth of the plugin's start.
  invoke: handled(async ({ request }) => (await import("./invoke")).invoke(request)),

  // Loaded at the first construct: @pulumi/pulumi's runtime takes about a second to load.
  construct: handled(async ({ request }) => (await import("./components")).constructComponent(request)),

  // A plugin started by hand (PULUMI_DEBUG_PROVIDERS, docs/debugging-the-plugin.md) learns the
  // engine's address here, at the start of each update it serves, instead of from its arguments.
  attach: handled(async ({ request }) => {
    startUpdate(request.getAddress());
    return new emptyproto.Empty();
  }),

  // Methods left out (call, ...) get grpc-js's UNIMPLEMENTED answer.
  cancel: handled(async () => new emptyproto.Empty()),
};
