import { typeToken } from "../tokens";
import { blobFolder } from "../kinds";
import { constructBlobFolder } from "./blob-folder";
import { type ComponentCode, construct } from "./construct";

/** The code of each component the plugin constructs, by its type token. */
const byToken = new Map<string, ComponentCode>([[typeToken(blobFolder.name), constructBlobFolder]]);

/** Constructs the component the request names. */
export function constructComponent(request: { getType(): string }): Promise<unknown> {
  const code = byToken.get(request.getType());
  if (!code) throw new Error(`unknown component type ${request.getType()}`);
  return construct(request, code);
}
