export { Database } from "./database";
export type { DatabaseArgs } from "./database";
export { AppSnapshot } from "./app-snapshot";
export type { AppSnapshotArgs } from "./app-snapshot";
