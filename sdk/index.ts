export { Database } from "./database";
export type { DatabaseArgs } from "./database";
export * from "./data";
