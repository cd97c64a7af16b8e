/**
 * Data sources, read in the program's process (a dynamic provider cannot serve invokes): `getX`, a
 * Promise, and `getXOutput`, an Output; generated from provider/functions, as the plugin serves them.
 */
export * from "./generated";
export * from "./conveniences";
export type { DataSourceOptions } from "./options";
