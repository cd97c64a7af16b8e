/** The package's name: `squarecloud:` prefixes its config keys and its type tokens. */
export const PACKAGE_NAME = "squarecloud";

/** The type token of a resource, component, function or object type: `squarecloud:index:<name>`. */
export function typeToken(name: string): string {
  return `${PACKAGE_NAME}:index:${name}`;
}
